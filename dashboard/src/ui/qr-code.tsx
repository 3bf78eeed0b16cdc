import { toString as qrSvg } from 'qrcode/lib/browser';
import { useEffect, useState } from 'preact/hooks';

/**
 * `text` as a QR code, drawn here (an SVG in a data: URL, which the page's CSP allows for images):
 * the authenticator app's secret is in it, so no service elsewhere ever sees it (contract §19).
 */
export function QrCode(props: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void qrSvg(props.text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((svg) => {
      if (current) setSrc(`data:image/svg+xml,${encodeURIComponent(svg)}`);
    });
    return () => {
      current = false;
    };
  }, [props.text]);
  return src ? <img class="qr-code" src={src} alt={props.label} width={200} height={200} /> : null;
}
