/**
 * The company's requests as a table: filters, sort and page in the address (back and forward restore
 * them; a filter change starts again from page 1), and for staff managers a row selection with the
 * bulk bar. Loaded on demand by the list page (it needs the extra UI kit).
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useSearchParams } from '@portal/shared/web/router';
import { useDebouncedText } from '@portal/shared/web/hooks';
import { Button } from '@portal/shared/ui/button';
import { Flex, Input, SearchOutlined, Select, Switch } from '@portal/shared/ui/extra';
import {
  REQUEST_PRIORITIES,
  REQUEST_PRIORITY_LABELS,
  REQUEST_STATUSES,
  REQUEST_STATUS_LABELS,
  type RequestAssigneeOptions,
} from '@portal/shared/core/requests';
import { personName } from '../../../app/labels';
import { useRequestAssigneeOptionsQuery, useRequestsListQuery } from '../../../app/requests-api';
import {
  apiQueryOf,
  assigneeFilterChanges,
  assigneeFilterValue,
  filterKey,
  hasFilters,
  listStateFrom,
  NO_FILTERS,
  withListState,
  type RequestsListState,
} from '../model/list-state';
import { BulkBar } from './bulk-bar';
import { RequestsTable } from './requests-table';

const STATUS_OPTIONS = REQUEST_STATUSES.map((s) => ({ value: s, label: REQUEST_STATUS_LABELS[s] }));
const PRIORITY_OPTIONS = REQUEST_PRIORITIES.map((p) => ({ value: p, label: REQUEST_PRIORITY_LABELS[p] }));

/** The Assignee filter's choices: me (clients: their own and their teams'), nobody, each member, each team. */
function assigneeFilterOptions(options: RequestAssigneeOptions | undefined, staff: boolean, state: RequestsListState) {
  const choices = [
    ...(staff ? [] : [{ value: 'me', label: 'Assigned to me' }]),
    { value: 'none', label: 'Unassigned' },
    ...(options?.users ?? []).map((u) => ({ value: `user:${u.id}`, label: `${personName(u)} (${u.email})` })),
    ...(options?.teams ?? []).map((t) => ({ value: `team:${t.id}`, label: `Team: ${t.name}` })),
  ];
  // an address naming someone not offered (a link from elsewhere) still shows as chosen
  const current = assigneeFilterValue(state);
  if (current && !choices.some((c) => c.value === current))
    choices.push({ value: current, label: current === 'me' ? 'Assigned to me' : 'Someone else' });
  return choices;
}

function requesterFilterOptions(options: RequestAssigneeOptions | undefined, requesterId: string | null) {
  const choices = [
    { value: 'me', label: 'Requested by me' },
    ...(options?.requesters ?? []).map((u) => ({ value: u.id, label: personName(u) })),
  ];
  if (requesterId && !choices.some((c) => c.value === requesterId))
    choices.push({ value: requesterId, label: 'Someone else' });
  return choices;
}

export function RequestsList({ companyId, staff, manage }: { companyId: string; staff: boolean; manage: boolean }) {
  const [params, setParams] = useSearchParams();
  const state = listStateFrom(params);
  const list = useRequestsListQuery({ companyId, ...apiQueryOf(state) });
  const options = useRequestAssigneeOptionsQuery(companyId);
  const overdueId = `${useId()}overdue`;

  const update = useCallback(
    (changes: Partial<RequestsListState>, replace = false) =>
      setParams((prev) => withListState(prev, changes), { replace }),
    [setParams],
  );

  // A typing burst is one step of history: its first search pushes an entry (Back returns to the list
  // before the search) and the next ones replace it, while that entry is still the current one and the
  // box has kept the focus.
  const { key: locationKey } = useLocation();
  const currentKey = useRef(locationKey);
  const burstKey = useRef<string | null>(null);
  const searchPending = useRef(false);
  useEffect(() => {
    currentKey.current = locationKey;
    if (searchPending.current) {
      searchPending.current = false;
      burstKey.current = locationKey;
    }
  }, [locationKey]);
  const commitSearch = useCallback(
    (search: string) => {
      const continuing = burstKey.current !== null && burstKey.current === currentKey.current;
      searchPending.current = true;
      update({ search }, continuing);
    },
    [update],
  );
  const [searchText, setSearchText] = useDebouncedText(state.search, commitSearch);

  // The selection holds for the rows the filters pick; other filters pick other rows, so it starts over.
  const rowsKey = filterKey(state);
  const [chosen, setChosen] = useState<{ rowsKey: string; ids: string[] }>({ rowsKey, ids: [] });
  const selected = chosen.rowsKey === rowsKey ? chosen.ids : [];
  const select = useCallback((ids: string[]) => setChosen({ rowsKey, ids }), [rowsKey]);

  const filtered = hasFilters(state);
  const clearFilters = () => {
    setSearchText('');
    update(NO_FILTERS);
  };
  const projects = options.data?.projects ?? [];
  const projectChoices = projects.map((p) => ({ value: p.id, label: p.title }));
  if (state.projectId && !projects.some((p) => p.id === state.projectId))
    projectChoices.push({ value: state.projectId, label: 'Another project' });

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center" role="search" aria-label="Request filters">
        <Input
          aria-label="Search requests"
          placeholder="Search requests"
          prefix={<SearchOutlined />}
          allowClear
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onBlur={() => {
            burstKey.current = null;
          }}
          style={{ width: 220 }}
        />
        <Select
          aria-label="Status filter"
          mode="multiple"
          allowClear
          placeholder="Any status"
          options={STATUS_OPTIONS}
          value={state.status}
          onChange={(status) => update({ status })}
          style={{ minWidth: 170 }}
        />
        <Select
          aria-label="Priority filter"
          mode="multiple"
          allowClear
          placeholder="Any priority"
          options={PRIORITY_OPTIONS}
          value={state.priority}
          onChange={(priority) => update({ priority })}
          style={{ minWidth: 160 }}
        />
        <Select
          aria-label="Assignee filter"
          allowClear
          placeholder="Any assignee"
          showSearch={{ optionFilterProp: 'label' }}
          options={assigneeFilterOptions(options.data, staff, state)}
          value={assigneeFilterValue(state)}
          onChange={(value?: string) => update(assigneeFilterChanges(value))}
          loading={options.isLoading}
          popupMatchSelectWidth={false}
          style={{ minWidth: 170 }}
        />
        {staff || state.requesterId ? (
          <Select
            aria-label="Requester filter"
            allowClear
            placeholder="Any requester"
            showSearch={{ optionFilterProp: 'label' }}
            options={requesterFilterOptions(options.data, state.requesterId)}
            value={state.requesterId ?? undefined}
            onChange={(requesterId?: string) => update({ requesterId: requesterId ?? null })}
            loading={options.isLoading}
            popupMatchSelectWidth={false}
            style={{ minWidth: 170 }}
          />
        ) : null}
        <Select
          aria-label="Project filter"
          allowClear
          placeholder="Any project"
          showSearch={{ optionFilterProp: 'label' }}
          options={projectChoices}
          value={state.projectId ?? undefined}
          onChange={(projectId?: string) => update({ projectId: projectId ?? null })}
          loading={options.isLoading}
          popupMatchSelectWidth={false}
          style={{ minWidth: 170 }}
        />
        {/* The api picks overdue requests by the server's (UTC) day, while the rows' Overdue tags follow the
            user's own day: around midnight the two may differ by a day. */}
        <Flex gap={6} align="center">
          <Switch id={overdueId} size="small" checked={state.overdue} onChange={(overdue) => update({ overdue })} />
          <label htmlFor={overdueId}>Overdue only</label>
        </Flex>
        <Button onClick={clearFilters} disabled={!filtered && searchText === ''}>
          Clear filters
        </Button>
      </Flex>
      {manage && selected.length ? (
        <BulkBar companyId={companyId} requestIds={selected} onDone={() => select([])} />
      ) : null}
      <RequestsTable
        list={list}
        state={state}
        filtered={filtered}
        onChange={(changes) => update(changes)}
        selection={manage ? { keys: selected, onChange: select } : undefined}
      />
    </Flex>
  );
}
