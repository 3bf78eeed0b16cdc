import { BRAND_PERMISSIONS } from '../contract';

/**
 * A member's permissions (contract §2), one checkbox each, named by the permission's key as
 * browser suites find them; settings.manage included, as a member may hold it.
 */
export function PermissionCheckboxes(props: {
  legend: string;
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
}) {
  const toggle = (permission: string) =>
    props.onChange(
      props.chosen.includes(permission)
        ? props.chosen.filter((p) => p !== permission)
        : BRAND_PERMISSIONS.filter((p) => p === permission || props.chosen.includes(p)),
    );
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      <div class="group">
        {BRAND_PERMISSIONS.map((permission) => (
          <label key={permission}>
            <input type="checkbox" checked={props.chosen.includes(permission)} onChange={() => toggle(permission)} />
            {permission}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
