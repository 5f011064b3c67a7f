import { Form, Input, Select } from '@portal/shared/ui/extra';
import { dayText, PROJECT_TYPES, projectCreateSchema, type Project } from '@portal/shared/core/projects';
import { schemaRule } from '@portal/shared/core/errors';
import { projectsApi } from '../../../app/projects-api';
import { projectFormValues, projectUpdateBody, type ProjectFormValues } from '../model/project-body';
import { FormModal } from './form-modal';

const shape = projectCreateSchema.shape;

/** Edits a project's fields (projectUpdateSchema); the api's field errors land on the fields. */
export function ProjectEditModal({ project, open, onClose }: { project: Project; open: boolean; onClose: () => void }) {
  const [update] = projectsApi.useProjectsUpdateMutation();
  const practices = projectsApi.useProjectsPracticesQuery(undefined, { skip: !open });
  // Retired practices are not offered for a change, but the project's own stays shown.
  const practiceOptions = (practices.data ?? [])
    .filter((p) => p.status === 'active')
    .map((p) => ({ value: p.id, label: p.name }));
  if (project.practice && !practiceOptions.some((o) => o.value === project.practice?.id)) {
    practiceOptions.unshift({ value: project.practice.id, label: project.practice.name });
  }

  return (
    <FormModal<ProjectFormValues>
      title="Edit project"
      okText="Save"
      open={open}
      initialValues={projectFormValues(project)}
      onClose={onClose}
      onSubmit={async (values) => {
        const body = projectUpdateBody(values, project);
        if (Object.keys(body).length) await update({ projectId: project.id, body }).unwrap();
      }}
    >
      <Form.Item name="title" label="Title" rules={[schemaRule(shape.title)]}>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="description" label="Description" rules={[schemaRule(shape.description)]}>
        <Input.TextArea rows={3} />
      </Form.Item>
      <Form.Item name="type" label="Type" extra="Can be switched only while every task is Open or Incomplete.">
        <Select aria-label="Type" options={PROJECT_TYPES.map((t) => ({ value: t, label: t }))} />
      </Form.Item>
      <Form.Item name="practiceId" label="Practice" extra="Cannot change once the project has tasks.">
        <Select
          aria-label="Practice"
          // The api refuses the change once there are tasks (practices_can_not_be_changed_when_project_has_tasks).
          disabled={project.tasksTotal > 0}
          allowClear
          placeholder="No practice"
          loading={practices.isFetching}
          options={practiceOptions}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item name="startDate" label="Start date" rules={[schemaRule(dayText('startDate'), { skipEmpty: true })]}>
        <Input type="date" />
      </Form.Item>
      <Form.Item
        name="dueDate"
        label="Due date"
        dependencies={['startDate']}
        rules={[
          schemaRule(dayText('dueDate'), { skipEmpty: true }),
          ({ getFieldValue }) => ({
            validator: async (_rule: unknown, value?: string) => {
              const start = getFieldValue('startDate') as string | undefined;
              if (value && start && value < start) throw new Error('dueDate must not be before startDate');
            },
          }),
        ]}
      >
        <Input type="date" />
      </Form.Item>
    </FormModal>
  );
}
