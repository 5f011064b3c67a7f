import { fieldMessage } from '@portal/shared/core/errors';
import type { KeyboardEvent } from 'react';
import { ReloadOutlined, theme } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Checkbox, Empty, Flex, Form, Input, Skeleton, Tag, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import { REQUEST_LIMITS, requestCommentSchema, type RequestDetail } from '@portal/shared/core/requests';
import { fieldErrors } from '@portal/shared/web/api';
import { schemaRule } from '@portal/shared/core/errors';
import { useRequestCommentCreateMutation, useRequestCommentsQuery } from '../../../app/requests-api';
import { apiErrorMessage } from '../model/errors';
import { personName } from '../model/labels';

interface CommentValues {
  body?: string;
  internal?: boolean;
}

/**
 * The request's comments, oldest first (plain text: React escapes it). Anyone who sees the request
 * writes; staff may mark a comment internal (staff only). Ctrl+Enter (⌘+Enter) posts. The text stays
 * in the box until the api took it, so a failed post loses nothing.
 */
export function RequestComments({ request }: { request: RequestDetail }) {
  const { token } = theme.useToken();
  const comments = useRequestCommentsQuery(request.id);
  const [post, posting] = useRequestCommentCreateMutation();
  const [form] = Form.useForm<CommentValues>();
  const body = Form.useWatch('body', form) ?? '';
  const canInternal = request.permissions.commentInternal;
  const empty = !body.trim();

  const submit = async ({ body: text = '', internal = false }: CommentValues) => {
    if (!text.trim()) return;
    try {
      await post({ requestId: request.id, body: { body: text.trim(), internal: canInternal && internal } }).unwrap();
      form.resetFields();
      posting.reset();
    } catch (error) {
      const fields = fieldErrors(error).filter((f) => f.name === 'body');
      if (fields.length)
        form.setFields([{ name: 'body', errors: fields[0].errors.map((e) => fieldMessage('body', e)) }]);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      // the box itself, not the watched value: that one follows a moment later
      const text = (form.getFieldValue('body') as string | undefined) ?? '';
      if (!posting.isLoading && text.trim()) form.submit();
    }
  };

  const ordered = [...(comments.currentData ?? [])].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const failure =
    posting.isError && !fieldErrors(posting.error).length
      ? apiErrorMessage(posting.error, 'The comment could not be posted. Try again.')
      : null;

  return (
    <Card title="Comments" data-testid="request-comments">
      {comments.isLoading ? (
        <Skeleton active />
      ) : comments.isError && !comments.isFetching ? (
        <Empty description="The comments could not be loaded.">
          <Button icon={<ReloadOutlined />} onClick={() => void comments.refetch()}>
            Try again
          </Button>
        </Empty>
      ) : !ordered.length ? (
        <Typography.Paragraph type="secondary">No comments yet.</Typography.Paragraph>
      ) : (
        <ol aria-label="Comments" style={{ listStyle: 'none', padding: 0, margin: '0 0 16px' }}>
          {ordered.map((c) => (
            <li
              key={c.id}
              data-testid="request-comment"
              style={{ padding: '8px 0', borderBottom: `1px solid ${token.colorBorderSecondary}` }}
            >
              <Flex gap="small" align="baseline" wrap>
                <Typography.Text strong>{personName(c.author)}</Typography.Text>
                <Typography.Text type="secondary">
                  <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                </Typography.Text>
                {c.internal ? <Tag color="purple">Internal</Tag> : null}
              </Flex>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '4px 0 0' }}>
                {c.body}
              </Typography.Paragraph>
            </li>
          ))}
        </ol>
      )}
      <Form<CommentValues>
        form={form}
        name="request-comment"
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ body: '', internal: false }}
      >
        <Form.Item
          name="body"
          label="Comment"
          extra="Ctrl+Enter (⌘+Enter) posts it."
          rules={[schemaRule(requestCommentSchema.shape.body, { skipEmpty: true })]}
        >
          <Input.TextArea rows={3} onKeyDown={onKeyDown} maxLength={REQUEST_LIMITS.comment} />
        </Form.Item>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} /> : null}
        <Flex gap="middle" align="center" wrap>
          {canInternal ? (
            <Form.Item name="internal" valuePropName="checked" noStyle>
              <Checkbox>Internal (staff only)</Checkbox>
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" loading={posting.isLoading} disabled={empty}>
            Post comment
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
