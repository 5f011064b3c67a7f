import { useState } from 'react';
import { remoteOverrideBodySchema } from '@portal/shared/core/schemas';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Form, Input, List, Popconfirm, Typography } from '@portal/shared/ui/extra';
import { publishToast } from '@portal/shared/web/events';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import {
  useSettingsRemoteOverrideDeleteMutation,
  useSettingsRemoteOverrideSetMutation,
  useSettingsRemoteOverridesQuery,
  type RemoteOverride,
} from '../api/remote-overrides-api';

/**
 * Staff: load a remote from another address in this browser alone (a release under test, a dev
 * server), until removed here or the session ends. Takes effect at the next page load.
 */
export function RemoteOverrides() {
  const [form] = Form.useForm<RemoteOverride>();
  const list = useSettingsRemoteOverridesQuery();
  const [set, { isLoading: setting }] = useSettingsRemoteOverrideSetMutation();
  const [remove] = useSettingsRemoteOverrideDeleteMutation();
  const [changed, setChanged] = useState(false);

  const onFinish = async (values: RemoteOverride) => {
    try {
      await set({ remote: values.remote.trim(), url: values.url.trim() }).unwrap();
      form.resetFields();
      setChanged(true);
      publishToast({ severity: 'success', summary: `${values.remote} loads from the new address in this browser` });
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  return (
    <Card title="Test a release in this browser">
      <Typography.Paragraph type="secondary">
        Load one module from another address (a release not yet in force, or a development server) in this browser only.
        Everyone else keeps the release in force.
      </Typography.Paragraph>
      {changed ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="Reload the page to load the module from its new address."
          action={<Button onClick={() => window.location.reload()}>Reload</Button>}
        />
      ) : null}
      <List
        loading={list.isLoading}
        dataSource={list.data ?? []}
        locale={{
          // antd's own empty-text colour is too faint to read (under 4.5:1)
          emptyText: (
            <Typography.Text type="secondary">
              {list.isError ? 'The overrides could not be loaded.' : 'Every module loads from the portal.'}
            </Typography.Text>
          ),
        }}
        renderItem={(item) => (
          <List.Item
            actions={[
              <Popconfirm
                key="remove"
                title={`Load ${item.remote} from the portal again?`}
                okText="Remove"
                onConfirm={async () => {
                  await remove(item.remote).unwrap();
                  setChanged(true);
                }}
              >
                <Button>Remove</Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta title={item.remote} description={item.url} />
          </List.Item>
        )}
      />
      <Form
        form={form}
        name="remote-override"
        layout="vertical"
        onFinish={onFinish}
        style={{ maxWidth: 560, marginTop: 16 }}
      >
        <Form.Item
          name="remote"
          label="Module"
          extra="Its name in the remotes manifest: mfe-projects, mfe-requests, mfe-settings or mfe-reports."
          rules={[{ required: true, whitespace: true, message: 'Enter the module to load from another address' }]}
        >
          <Input placeholder="mfe-reports" />
        </Form.Item>
        <Form.Item
          name="url"
          label="Address of its mf-manifest.json"
          rules={[
            { required: true, whitespace: true, message: 'Enter the address' },
            schemaRule(remoteOverrideBodySchema.shape.url),
          ]}
        >
          <Input placeholder="http://localhost:3004/mf-manifest.json" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={setting}>
          Use in this browser
        </Button>
      </Form>
    </Card>
  );
}
