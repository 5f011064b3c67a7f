import type { ReactNode } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { Modal } from '@portal/shared/ui/extra';
import type { PracticeSummary } from '@portal/shared/core/practices';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { useSettingsPracticeUpdateMutation } from '../api/practices-api';

type Root = { session: SessionState };

/** Whether the signed-in user may change practices and templates (settings permission users.editPractices). */
export function useCanEditPractices(): boolean {
  return !!useSelector((s: Root) => sessionSelectors.selectAccess(s))?.settingsPermissions.users.editPractices;
}

/**
 * Retires or restores a practice after a confirmation. Retiring hides it (and its templates) from the
 * pickers; projects of the practice keep it.
 */
export function useRetirePractice(): [(p: Pick<PracticeSummary, 'id' | 'name' | 'status'>) => void, ReactNode] {
  const [update] = useSettingsPracticeUpdateMutation();
  const [modal, holder] = Modal.useModal();
  const confirm = (p: Pick<PracticeSummary, 'id' | 'name' | 'status'>) => {
    const retiring = p.status === 'active';
    void modal.confirm({
      title: retiring ? `Retire ${p.name}?` : `Restore ${p.name}?`,
      content: retiring
        ? 'Its templates can no longer be applied to projects and it cannot be chosen for staff or projects. Projects of the practice keep it. You can restore it later.'
        : 'It can be chosen again for staff and projects, and its published templates can be applied.',
      okText: retiring ? 'Retire' : 'Restore',
      okButtonProps: { danger: retiring },
      // a refusal is the shell's toast; the dialog closes either way
      onOk: () =>
        update({ id: p.id, body: { status: retiring ? 'retired' : 'active' } })
          .unwrap()
          .catch(() => undefined),
    });
  };
  return [confirm, holder];
}
