import { Logger } from '@nestjs/common';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** `npm run build` writes the admin area here (dashboard/build.mjs), from src/ or from dist/ alike. */
const ROOT = path.resolve(__dirname, '..', '..', 'dist', 'dashboard');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface BuiltFile {
  /** Text: both platforms send a string as it is (Express would send a Buffer as JSON). */
  body: string;
  type: string;
}

/**
 * The admin area's built files, read once at start-up into memory (a few tens of KB). Only names
 * found here are ever served, so no path from a request reaches the file system.
 */
export class BuiltFiles {
  readonly index: string | null;
  private readonly assets = new Map<string, BuiltFile>();

  constructor(root = ROOT) {
    if (!existsSync(path.join(root, 'index.html'))) {
      new Logger('AdminArea').warn(`${root} has no build of the admin area: run npm run build`);
      this.index = null;
      return;
    }
    this.index = readFileSync(path.join(root, 'index.html'), 'utf8');
    for (const name of readdirSync(path.join(root, 'assets'))) {
      const type = TYPES[path.extname(name)];
      if (type) this.assets.set(name, { body: readFileSync(path.join(root, 'assets', name), 'utf8'), type });
    }
  }

  asset(name: string): BuiltFile | undefined {
    return this.assets.get(name);
  }
}
