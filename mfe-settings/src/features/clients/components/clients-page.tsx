import { useEffect, useRef, useState } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { useSearchParams } from '@portal/shared/web/router';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  Empty,
  Flex,
  Input,
  PlusOutlined,
  SearchOutlined,
  Table,
  Tag,
  Tooltip,
  type TableProps,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { MODULES } from '@portal/shared/core/modules';
import type { Company } from '@portal/shared/core/schemas';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { MODULE_LABELS } from '../../../app/modules';
import { errorMessage } from '@portal/shared/web/api';
import { useSettingsClientsListQuery } from '../api/clients-api';
import { clientsQueryFrom, PAGE_SIZES, withClientsQuery } from '../model/clients-query';
import { AddCompanyModal } from './add-company-modal';

type Root = { session: SessionState };

const SEARCH_DELAY_MS = 300;

function ModuleTags({ company }: { company: Company }) {
  return (
    <Flex gap={4} wrap>
      {MODULES.map((m) =>
        company.modulesAccess[m] ? (
          <Tag key={m} color="blue">
            {MODULE_LABELS[m]}
          </Tag>
        ) : (
          <Tag key={m} style={{ textDecoration: 'line-through' }} aria-label={`${MODULE_LABELS[m]} off`}>
            {MODULE_LABELS[m]}
          </Tag>
        ),
      )}
    </Flex>
  );
}

/**
 * Clients (staff): every company with its modules, searched, paged and sorted on the server, the
 * state in the address. Staff admins add companies here.
 */
export function ClientsPage() {
  const [params, setParams] = useSearchParams();
  const query = clientsQueryFrom(params);
  const list = useSettingsClientsListQuery(query);
  // Adding a company belongs to staff admins (company.addCompany), whichever company is selected, even none.
  const canAdd = useSelector((s: Root) => {
    const u = sessionSelectors.selectUser(s);
    return !!u?.isTevora && u.admin.active;
  });
  const [adding, setAdding] = useState(false);

  // The box follows the address (back, forward, a link) and, after a pause in typing, sets it.
  const [text, setText] = useState(query.search ?? '');
  const inAddress = useRef(query.search ?? '');
  useEffect(() => {
    const fromAddress = query.search ?? '';
    if (fromAddress !== inAddress.current) {
      inAddress.current = fromAddress;
      setText(fromAddress);
    }
  }, [query.search]);
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === inAddress.current) return;
    const timer = setTimeout(() => {
      inAddress.current = wanted;
      setParams((prev) => withClientsQuery(prev, { ...clientsQueryFrom(prev), search: wanted || undefined, page: 1 }), {
        replace: true,
      });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, setParams]);

  // The api sorts by name either way (`sort=name|-name`), across pages.
  const rows = list.data?.results ?? [];

  const onChange: TableProps<Company>['onChange'] = (pagination, _filters, sorter) => {
    const order = Array.isArray(sorter) ? sorter[0]?.order : sorter.order;
    const sort = order === 'descend' ? '-name' : 'name';
    const pageSize = pagination.pageSize ?? query.pageSize;
    const page = sort !== query.sort || pageSize !== query.pageSize ? 1 : (pagination.current ?? 1);
    setParams((prev) => withClientsQuery(prev, { ...clientsQueryFrom(prev), page, pageSize, sort }));
  };

  const columns: TableProps<Company>['columns'] = [
    {
      key: 'name',
      title: 'Company',
      dataIndex: 'name',
      sorter: true,
      sortOrder: query.sort === '-name' ? 'descend' : 'ascend',
      sortDirections: ['ascend', 'descend', 'ascend'],
    },
    { key: 'modules', title: 'Modules', render: (_: unknown, company: Company) => <ModuleTags company={company} /> },
  ];

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} disabled={!canAdd} onClick={() => setAdding(true)}>
      Add company
    </Button>
  );

  return (
    <div data-testid="settings-clients">
      <PageHeader
        title="Clients"
        crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Clients' }]}
        extra={
          canAdd ? (
            addButton
          ) : (
            <Tooltip title="Adding companies needs the permission to add companies (staff administrators).">
              {addButton}
            </Tooltip>
          )
        }
      />
      <Flex vertical gap="middle">
        <Input
          aria-label="Search companies"
          placeholder="Search companies by name"
          prefix={<SearchOutlined />}
          allowClear
          value={text}
          onChange={(e) => setText(e.target.value)}
          style={{ maxWidth: 360 }}
        />
        {list.isError ? (
          <Alert
            type="error"
            showIcon
            title="The companies could not be loaded"
            description={errorMessage(list.error) ?? 'Check your connection and try again.'}
            action={
              <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
                Retry
              </Button>
            }
          />
        ) : (
          <Table<Company>
            rowKey="id"
            columns={columns}
            dataSource={rows}
            loading={list.isFetching}
            onChange={onChange}
            locale={{
              emptyText: (
                <Empty description={query.search ? `No companies match "${query.search}"` : 'No companies yet'} />
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES.map(String),
              showTotal: (total) => `${total} ${total === 1 ? 'company' : 'companies'}`,
            }}
          />
        )}
      </Flex>
      <AddCompanyModal open={adding} onClose={() => setAdding(false)} />
    </div>
  );
}
