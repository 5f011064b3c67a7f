import { useState } from 'react';
import { Card, Flex, Popconfirm, Switch, Typography } from '@portal/shared/ui/extra';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import type { Company } from '@portal/shared/core/schemas';
import { useCompaniesGetQuery } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { MODULE_LABELS } from '../../../app/modules';
import { useSettingsCompanyModulesUpdateMutation } from '../api/company-api';
import { ReadOnlyNote, SectionError, SectionLoading } from './section-states';

const MODULE_DESCRIPTIONS: Record<ModuleName, string> = {
  risks: 'The risk register and its treatments.',
  projects: 'Compliance projects with their tasks, controls and files.',
  requests: 'Requests exchanged with the consultancy.',
  reports: 'Reports and their downloads.',
  assets: 'The inventory of assets in scope.',
};

/**
 * Which modules the company has (PATCH /companies/:id/modules-access): the ceiling for its users and
 * teams. Turning one on is immediate; turning one off asks first, as it takes the module away from
 * everybody in the company.
 */
export function CompanyModules({ companyId, canEdit }: { companyId: string; canEdit: boolean }) {
  const company = useCompaniesGetQuery(companyId);
  if (company.isLoading) return <SectionLoading label="Loading module access" />;
  if (!company.data)
    return (
      <SectionError what="The company's module access" error={company.error} onRetry={() => void company.refetch()} />
    );
  return <ModulesCard company={company.data} canEdit={canEdit} />;
}

function ModulesCard({ company, canEdit }: { company: Company; canEdit: boolean }) {
  const [update] = useSettingsCompanyModulesUpdateMutation();
  const [saving, setSaving] = useState<ModuleName | null>(null);

  const set = async (module: ModuleName, on: boolean) => {
    setSaving(module);
    try {
      await update({ companyId: company.id, modules: { [module]: on } }).unwrap();
      publishToast({
        severity: 'success',
        summary: `${MODULE_LABELS[module]} turned ${on ? 'on' : 'off'} for ${company.name}`,
      });
    } catch {
      // toasted by the shell; the switch keeps the server's value
    } finally {
      setSaving(null);
    }
  };

  return (
    <Card title="Module access">
      {canEdit ? null : (
        <ReadOnlyNote>Changing module access needs the permission to edit the company's module access.</ReadOnlyNote>
      )}
      <Typography.Paragraph>
        The company&apos;s setting is the ceiling: a module turned off here is off for every user and team of{' '}
        {company.name}, whatever their own settings. A module turned on here is available to users and teams, and can
        still be turned off for some of them.
      </Typography.Paragraph>
      <Flex vertical gap="middle" role="list" aria-label="Modules">
        {MODULES.map((module) => (
          <ModuleRow
            key={module}
            module={module}
            companyName={company.name}
            on={company.modulesAccess[module]}
            disabled={!canEdit || (saving !== null && saving !== module)}
            saving={saving === module}
            onSet={(on) => void set(module, on)}
          />
        ))}
      </Flex>
    </Card>
  );
}

function ModuleRow(props: {
  module: ModuleName;
  companyName: string;
  on: boolean;
  disabled: boolean;
  saving: boolean;
  onSet: (on: boolean) => void;
}) {
  const { module, companyName, on, disabled, saving, onSet } = props;
  const [confirming, setConfirming] = useState(false);
  const label = MODULE_LABELS[module];
  const description = MODULE_DESCRIPTIONS[module];
  const id = `company-module-${module}`;
  return (
    <Flex role="listitem" align="center" gap="middle">
      <Popconfirm
        open={confirming}
        onOpenChange={(open) => {
          if (!open) setConfirming(false);
        }}
        title={`Turn ${label} off for ${companyName}?`}
        description="Nobody in the company can use it until it is turned on again."
        okText="Turn off"
        okButtonProps={{ danger: true }}
        onConfirm={() => {
          setConfirming(false);
          onSet(false);
        }}
        onCancel={() => setConfirming(false)}
      >
        <Switch
          id={id}
          checked={on}
          disabled={disabled}
          loading={saving}
          aria-describedby={`${id}-description`}
          onChange={(checked) => (checked ? onSet(true) : setConfirming(true))}
        />
      </Popconfirm>
      <div>
        <label htmlFor={id} style={{ fontWeight: 500 }}>
          {label}
        </label>
        <Typography.Text type="secondary" id={`${id}-description`} style={{ display: 'block' }}>
          {description}
        </Typography.Text>
      </div>
    </Flex>
  );
}
