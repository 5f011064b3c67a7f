import type { KeyboardEvent } from 'react';
import { theme } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Card, Flex, Form, Input, Skeleton, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import { commentCreateSchema, type TaskDetail } from '@portal/shared/core/projects';
import { schemaRule } from '@portal/shared/core/errors';
import { projectsApi } from '../../../app/projects-api';
import { markServerErrors } from '../model/forms';
import { personName } from '../model/labels';
import { LoadFailedEmpty } from './page-states';

/**
 * A task's comments, oldest first. Comment text is shown as plain text (React escapes it): it is never
 * read as HTML. Ctrl+Enter (⌘+Enter) sends a new comment.
 */
export function TaskComments({ projectId, task }: { projectId: string; task: TaskDetail }) {
  const { token } = theme.useToken();
  const ids = { projectId, taskId: task.id };
  const comments = projectsApi.useProjectsTaskCommentsQuery(ids);
  const [add, { isLoading: sending }] = projectsApi.useProjectsTaskCommentMutation();
  const [form] = Form.useForm<{ body: string }>();

  const submit = async ({ body }: { body: string }) => {
    try {
      await add({ ...ids, body: body.trim() }).unwrap();
      form.resetFields();
    } catch (error) {
      markServerErrors(form, error);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (!sending) form.submit();
    }
  };

  const ordered = [...(comments.data ?? [])].sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  return (
    <Card title={`Comments (${ordered.length})`}>
      {comments.isLoading ? (
        <Skeleton active />
      ) : comments.isError ? (
        <LoadFailedEmpty what="comments" onRetry={() => void comments.refetch()} />
      ) : !ordered.length ? (
        <Typography.Paragraph type="secondary">No comments yet.</Typography.Paragraph>
      ) : (
        <ol aria-label="Comments" style={{ listStyle: 'none', padding: 0, margin: '0 0 16px' }}>
          {ordered.map((c) => (
            <li key={c.id} style={{ padding: '8px 0', borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
              <Flex gap="small" align="baseline">
                <Typography.Text strong>{c.author ? personName(c.author) : 'Former user'}</Typography.Text>
                <Typography.Text type="secondary">
                  <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                </Typography.Text>
              </Flex>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '4px 0 0' }}>
                {c.body}
              </Typography.Paragraph>
            </li>
          ))}
        </ol>
      )}
      {task.permissions.comment ? (
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item
            name="body"
            label="Add a comment"
            extra="Ctrl+Enter (⌘+Enter) sends it."
            rules={[schemaRule(commentCreateSchema.shape.body)]}
          >
            <Input.TextArea rows={3} onKeyDown={onKeyDown} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={sending}>
            Comment
          </Button>
        </Form>
      ) : null}
    </Card>
  );
}
