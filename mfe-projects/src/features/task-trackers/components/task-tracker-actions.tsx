/**
 * The Tasks tab's "Apply template" (staff who manage projects) and "Import tasks" (the project's
 * writers). Their dialogs load on first use, so the project page carries only these two buttons.
 */
import { useId, useState, type ReactElement } from 'react';
import { deferred } from '@portal/shared/web/deferred';
import { Button } from '@portal/shared/ui/button';
import { Tooltip, UploadOutlined } from '@portal/shared/ui/extra';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import type { Project } from '@portal/shared/core/projects';

const ApplyTemplateDialog = deferred(() =>
  import('./apply-template-dialog').then((m) => ({ default: m.ApplyTemplateDialog })),
);
const ImportTasksDialog = deferred(() =>
  import('./import-tasks-dialog').then((m) => ({ default: m.ImportTasksDialog })),
);

/** A button that a canceled project shows disabled, saying why on hover (the api would answer project_is_canceled). */
function FrozenWhenCanceled({ canceled, children }: { canceled: boolean; children: ReactElement }) {
  if (!canceled) return children;
  // a disabled button gets no pointer events: the wrapper carries the tooltip
  return (
    <Tooltip title={ERROR_MESSAGES.project_is_canceled}>
      <span style={{ display: 'inline-block', cursor: 'not-allowed' }}>{children}</span>
    </Tooltip>
  );
}

export function TaskTrackerActions({ project }: { project: Project }) {
  const [open, setOpen] = useState<'apply' | 'import' | null>(null);
  const reasonId = useId();
  const canceled = project.status === 'canceled';
  // `write` is false on a canceled project; whoever would write to it still sees the button, disabled
  const writer = project.permissions.write || (canceled && (project.permissions.manage || project.myRole !== null));
  const close = () => setOpen(null);
  // screen readers read the reason with the disabled button
  const described = canceled ? reasonId : undefined;
  return (
    <>
      {project.permissions.manage ? (
        <FrozenWhenCanceled canceled={canceled}>
          <Button disabled={canceled} aria-describedby={described} onClick={() => setOpen('apply')}>
            Apply template
          </Button>
        </FrozenWhenCanceled>
      ) : null}
      {writer ? (
        <FrozenWhenCanceled canceled={canceled}>
          <Button
            icon={<UploadOutlined />}
            disabled={canceled}
            aria-describedby={described}
            onClick={() => setOpen('import')}
          >
            Import tasks
          </Button>
        </FrozenWhenCanceled>
      ) : null}
      {canceled && writer ? (
        <span id={reasonId} hidden>
          {ERROR_MESSAGES.project_is_canceled}
        </span>
      ) : null}
      {open === 'apply' ? <ApplyTemplateDialog project={project} onClose={close} /> : null}
      {open === 'import' ? <ImportTasksDialog project={project} onClose={close} /> : null}
    </>
  );
}
