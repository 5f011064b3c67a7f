import { useRef, useState, type ComponentRef } from 'react';
import { useNavigate } from '@portal/shared/web/router';
import { Flex, Form, Input, Modal, Select } from '@portal/shared/ui/extra';
import { PROJECT_TYPES, projectCreateSchema, type ProjectCreate, type ProjectType } from '@portal/shared/core/projects';
import { fieldMessage } from '@portal/shared/core/errors';
import { publishToast } from '@portal/shared/web/events';
import { projectPath } from '../../../app/paths';
import { markServerErrors } from '../../projects/model/forms';
import { projectsApi } from '../../../app/projects-api';

interface NewProjectValues {
  title?: string;
  type: ProjectType;
  practiceId?: string | null;
  description?: string;
  /** Native date inputs: 'YYYY-MM-DD', or '' when empty. */
  startDate?: string;
  dueDate?: string;
}

type Field = 'title' | 'type' | 'practiceId' | 'description' | 'startDate' | 'dueDate';

/**
 * A new project in the selected company. Checked with the contract's own schema before sending, so the
 * messages match the api's; the api's field errors land under their fields. Enter submits, Escape closes
 * (not while the project is being created).
 */
export function NewProjectModal({
  open,
  companyId,
  practices,
  onClose,
}: {
  open: boolean;
  companyId: string;
  practices: { id: string; name: string }[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<NewProjectValues>();
  const [create] = projectsApi.useProjectsCreateMutation();
  // While the project is being created the dialog stays open (Cancel, the close button and Escape do nothing).
  const [busy, setBusy] = useState(false);
  // Every active practice (staff read them; only staff open this form); the summary's list is the fallback.
  const { data: allPractices } = projectsApi.useProjectsPracticesQuery(undefined, { skip: !open });
  const practiceOptions = allPractices ? allPractices.filter((p) => p.status === 'active') : practices;
  const navigate = useNavigate();
  const titleRef = useRef<ComponentRef<typeof Input>>(null);

  const onFinish = async (values: NewProjectValues) => {
    const body: ProjectCreate = {
      title: values.title ?? '',
      type: values.type,
      practiceId: values.practiceId ?? null,
      description: values.description,
      startDate: values.startDate || undefined,
      dueDate: values.dueDate || undefined,
    };
    const checked = projectCreateSchema.safeParse(body);
    if (!checked.success) {
      const byField = new Map<string, string[]>();
      for (const issue of checked.error.issues) {
        const name = String(issue.path[0] ?? 'title');
        // under the field's label, without the schema's name of the field ("title is required": "Is required")
        byField.set(name, [...(byField.get(name) ?? []), fieldMessage(name, issue.message)]);
      }
      form.setFields([...byField].map(([name, errors]) => ({ name: name as Field, errors })));
      return;
    }
    setBusy(true);
    try {
      const project = await create({ companyId, body: checked.data }).unwrap();
      publishToast({ severity: 'success', summary: `${project.title} created` });
      onClose();
      navigate(projectPath(project.id));
    } catch (error) {
      // beside the fields (a taken title on Title), and then no toast
      markServerErrors(form, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="New project"
      okText="Create project"
      okButtonProps={{ htmlType: 'submit', loading: busy }}
      cancelButtonProps={{ disabled: busy }}
      closable={{ disabled: busy }}
      keyboard={!busy}
      onCancel={() => {
        if (!busy) onClose();
      }}
      destroyOnHidden
      afterOpenChange={(shown) => shown && titleRef.current?.focus()}
      // The whole dialog is the form, so its OK button is the form's submit button and Enter submits.
      modalRender={(dialog) => (
        <Form
          form={form}
          name="new-project"
          layout="vertical"
          initialValues={{ type: 'Assessment' }}
          onFinish={onFinish}
          clearOnDestroy
        >
          {dialog}
        </Form>
      )}
    >
      <Form.Item name="title" label="Title" required>
        <Input ref={titleRef} autoComplete="off" maxLength={150} />
      </Form.Item>
      <Flex gap="middle">
        <Form.Item name="type" label="Type" style={{ flex: 1 }}>
          <Select aria-label="Type" options={PROJECT_TYPES.map((t) => ({ value: t, label: t }))} />
        </Form.Item>
        <Form.Item name="practiceId" label="Practice" style={{ flex: 1 }}>
          <Select
            aria-label="Practice"
            allowClear
            placeholder="No practice"
            options={practiceOptions.map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
      </Flex>
      <Flex gap="middle">
        {/* The same native date inputs as the edit forms: they give 'YYYY-MM-DD' as the api takes it. */}
        <Form.Item name="startDate" label="Start date" style={{ flex: 1 }}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="dueDate" label="Due date" style={{ flex: 1 }}>
          <Input type="date" />
        </Form.Item>
      </Flex>
      <Form.Item name="description" label="Description">
        <Input.TextArea rows={3} maxLength={5000} />
      </Form.Item>
    </Modal>
  );
}
