/** How the settings screens name the modules, and the columns that set a user's or a team's own access to them. */
import { Radio, type TableProps } from '@portal/shared/ui/extra';
import type { ModuleName } from '@portal/shared/core/modules';

export const MODULE_LABELS: Record<ModuleName, string> = {
  risks: 'Risks',
  projects: 'Projects',
  requests: 'Requests',
  reports: 'Reports',
  assets: 'Assets',
};

type Choice = 'inherit' | 'on' | 'off';
const toChoice = (v: boolean | null): Choice => (v === null ? 'inherit' : v ? 'on' : 'off');
const fromChoice = (c: Choice): boolean | null => (c === 'inherit' ? null : c === 'on');

/** A module's own access for a user or a team: Inherit (null), On or Off; `value` undefined while it loads. */
function ModuleAccessChoice({
  name,
  module,
  value,
  disabled,
  onChange,
}: {
  name: string;
  module: ModuleName;
  value: boolean | null | undefined;
  disabled: boolean;
  onChange: (access: boolean | null) => void;
}) {
  return (
    <Radio.Group
      name={name}
      aria-label={`${MODULE_LABELS[module]} access`}
      optionType="button"
      size="small"
      disabled={disabled}
      value={value === undefined ? undefined : toChoice(value)}
      onChange={(e) => onChange(fromChoice(e.target.value as Choice))}
      options={[
        { value: 'inherit', label: 'Inherit' },
        { value: 'on', label: 'On' },
        { value: 'off', label: 'Off' },
      ]}
    />
  );
}

/**
 * The Module and Access columns of a table of a user's or a team's own module access, one row a module.
 * `name` prefixes each radio group's name (`user-u2` gives `user-u2-risks`).
 */
export function moduleAccessColumns({
  name,
  value,
  disabled,
  onChange,
}: {
  name: string;
  value: (module: ModuleName) => boolean | null | undefined;
  disabled: boolean;
  onChange: (module: ModuleName, access: boolean | null) => void;
}): NonNullable<TableProps<{ module: ModuleName }>['columns']> {
  return [
    { title: 'Module', key: 'module', render: (_v, { module }) => MODULE_LABELS[module] },
    {
      title: 'Access',
      key: 'choice',
      render: (_v, { module }) => (
        <ModuleAccessChoice
          name={`${name}-${module}`}
          module={module}
          disabled={disabled}
          value={value(module)}
          onChange={(access) => onChange(module, access)}
        />
      ),
    },
  ];
}
