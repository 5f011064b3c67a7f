/**
 * The Interviews tab of a project: its interviews a page at a time, filtered by when (`interviewsWhen`,
 * upcoming by default) and paged (`interviewsPage`) through the address. Staff who may change the
 * project schedule, reschedule and cancel (the api checks the same); everyone may download an
 * interview's invitation. Loaded on first use of the tab, so it adds nothing to the others.
 */
import { useEffect, useId, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  DownloadOutlined,
  EditOutlined,
  Empty,
  Flex,
  LinkOutlined,
  PlusOutlined,
  Radio,
  StopOutlined,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import { INTERVIEW_WHEN, type Interview, type InterviewWhen } from '@portal/shared/core/interviews';
import type { Project } from '@portal/shared/core/projects';
import { downloadFromApi } from '@portal/shared/web/download';
import { sessionSelectors, useRoleAllowed, type SessionState } from '@portal/shared/web/session';
import { useSelector } from '@portal/shared/web/store';
import { pageValue, useAddress, type AddressChanges } from '../../projects/hooks/use-address';
import { LoadFailedEmpty } from '../../projects/components/page-states';
import { interviewsApi, invitationPath } from '../interviews-api';
import { browserTimeZone } from '../model/interview-form';
import {
  compactNames,
  durationText,
  INTERVIEW_PARAMS,
  INTERVIEW_STATUS_LABELS,
  INTERVIEW_WHEN_LABELS,
  interviewListState,
  interviewPersonName,
  interviewWhen,
  INTERVIEWS_PAGE_SIZE,
  invitationFileName,
  isChangeable,
  meetingLink,
  NO_INTERVIEWS,
  whenValue,
} from '../model/interview-list';
import { CancelInterviewModal } from './cancel-interview-modal';
import { InterviewFormModal } from './interview-form-modal';

type Root = { session: SessionState };

/** When it starts where it takes place; below it, the viewer's own time when their zone differs (shown, not on hover). */
function When({ interview }: { interview: Interview }) {
  const text = interviewWhen(interview);
  if (interview.timeZone === browserTimeZone()) return <span>{text}</span>;
  return (
    <Flex vertical>
      <span>{text}</span>
      <Typography.Text type="secondary">{`Your time: ${formatDateTime(interview.startsAt)}`}</Typography.Text>
    </Flex>
  );
}

/** Names for a narrow cell; the whole list on hover or keyboard focus (the wrapper takes focus and names them all). */
function People({ people }: { people: Interview['attendees'] }) {
  const allId = useId();
  const text = compactNames(people);
  if (people.length <= 2) return <span>{text}</span>;
  const all = people.map(interviewPersonName).join(', ');
  return (
    <>
      <Tooltip title={all} trigger={['hover', 'focus']}>
        <span tabIndex={0} aria-describedby={allId}>
          {text}
        </span>
      </Tooltip>
      <span id={allId} hidden>
        {all}
      </span>
    </>
  );
}

/**
 * The time now, again when the first of `starts` passes (and at least every 30 seconds), so a page left
 * open stops offering changes to an interview once it has started.
 */
function useNow(starts: string[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = starts
    .map((s) => Date.parse(s))
    .filter((t) => t > now)
    .sort((a, b) => a - b)[0];
  useEffect(() => {
    const wait = next === undefined ? NOW_EVERY_MS : Math.min(Math.max(next - Date.now() + 50, 0), NOW_EVERY_MS);
    const timer = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [next, now]);
  return now;
}

const NOW_EVERY_MS = 30_000;

export function InterviewsTab({ project }: { project: Project }) {
  const [params, change] = useAddress();
  const state = interviewListState(params);
  const me = useSelector((s: Root) => sessionSelectors.selectUser(s))?.id;
  // staff who may change the project (clients and auditors only read)
  const canWrite = useRoleAllowed(['staff']) && project.permissions.write;
  const list = interviewsApi.useInterviewsListQuery({
    projectId: project.id,
    page: state.page,
    pageSize: INTERVIEWS_PAGE_SIZE,
    when: state.when,
  });
  // The dialogs keep their interview while they close, so their text does not change as they fade out.
  const [editing, setEditing] = useState<{ open: boolean; interview: Interview | null }>({
    open: false,
    interview: null,
  });
  const [canceling, setCanceling] = useState<{ open: boolean; interview: Interview | null }>({
    open: false,
    interview: null,
  });
  const schedule = () => setEditing({ open: true, interview: null });
  const shown = list.currentData?.results ?? [];
  const now = useNow(shown.filter((i) => i.status === 'scheduled').map((i) => i.startsAt));

  // A new filter starts again from the first page.
  const refine = (changes: AddressChanges) => change({ ...changes, [INTERVIEW_PARAMS.page]: null });

  const onChange: TableProps<Interview>['onChange'] = (pagination, _filters, _sorter, { action }) => {
    if (action === 'paginate') change({ [INTERVIEW_PARAMS.page]: pageValue(pagination.current) });
  };

  // fetched first, so a refusal (gone, no longer visible) is a toast, not a browser error page
  const [downloading, setDownloading] = useState<ReadonlySet<string>>(() => new Set());
  const download = async (interview: Interview) => {
    setDownloading((was) => new Set(was).add(interview.id));
    try {
      await downloadFromApi(invitationPath(project.id, interview.id), invitationFileName(interview.title));
    } finally {
      setDownloading((was) => {
        const next = new Set(was);
        next.delete(interview.id);
        return next;
      });
    }
  };

  const columns: TableProps<Interview>['columns'] = [
    {
      key: 'title',
      title: 'Title',
      render: (_v, i) => (
        <Flex vertical>
          <Typography.Text strong>{i.title}</Typography.Text>
          {i.location ? <Typography.Text type="secondary">{i.location}</Typography.Text> : null}
        </Flex>
      ),
    },
    { key: 'when', title: 'When', render: (_v, i) => <When interview={i} /> },
    { key: 'duration', title: 'Duration', render: (_v, i) => durationText(i.durationMinutes) },
    { key: 'organizer', title: 'Organizer', render: (_v, i) => (i.organizer ? interviewPersonName(i.organizer) : '—') },
    { key: 'interviewers', title: 'Interviewers', render: (_v, i) => <People people={i.interviewers} /> },
    { key: 'attendees', title: 'Attendees', render: (_v, i) => <People people={i.attendees} /> },
    {
      key: 'status',
      title: 'Status',
      render: (_v, i) => (
        <Tag color={i.status === 'canceled' ? 'default' : 'blue'}>{INTERVIEW_STATUS_LABELS[i.status]}</Tag>
      ),
    },
    {
      key: 'meeting',
      title: 'Meeting',
      render: (_v, i) => {
        const href = i.status === 'scheduled' ? meetingLink(i.onlineMeetingUrl) : null;
        return href ? (
          <a href={href} target="_blank" rel="noopener noreferrer" aria-label={`Join the meeting of ${i.title}`}>
            <LinkOutlined /> Join
          </a>
        ) : (
          '—'
        );
      },
    },
    {
      key: 'actions',
      title: 'Actions',
      render: (_v, i) => (
        <Flex gap={4} wrap={false}>
          {canWrite && isChangeable(i, now) ? (
            <>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={`Reschedule ${i.title}`}
                onClick={() => setEditing({ open: true, interview: i })}
              >
                Reschedule
              </Button>
              <Button
                size="small"
                danger
                icon={<StopOutlined />}
                aria-label={`Cancel interview ${i.title}`}
                onClick={() => setCanceling({ open: true, interview: i })}
              >
                Cancel interview
              </Button>
            </>
          ) : null}
          <Button
            size="small"
            icon={<DownloadOutlined />}
            aria-label={`Download invitation ${i.title}`}
            loading={downloading.has(i.id)}
            onClick={() => void download(i)}
          >
            Download invitation
          </Button>
        </Flex>
      ),
    },
  ];

  // the total of the list shown: a list of another filter or page (data, while the new one loads) must not page this one
  const total = list.currentData?.total ?? 0;
  // The toolbar's "Schedule interview" is the only one, always there for writers: the empty list says so in words.
  const emptyText =
    state.page > 1 && total > 0 ? (
      <Empty description={`There is no page ${state.page}.`}>
        <Button onClick={() => change({ [INTERVIEW_PARAMS.page]: null })}>Go to the first page</Button>
      </Empty>
    ) : (
      <Empty description={NO_INTERVIEWS[state.when]} />
    );

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <Radio.Group
          aria-label="Show interviews"
          optionType="button"
          value={state.when}
          onChange={(e) => refine({ [INTERVIEW_PARAMS.when]: whenValue(e.target.value as InterviewWhen) })}
          options={INTERVIEW_WHEN.map((w) => ({ value: w, label: INTERVIEW_WHEN_LABELS[w] }))}
        />
        {canWrite ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={schedule} style={{ marginInlineStart: 'auto' }}>
            Schedule interview
          </Button>
        ) : null}
      </Flex>
      <Table<Interview>
        rowKey="id"
        columns={columns}
        dataSource={shown}
        loading={list.isFetching}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: list.isError ? (
            <LoadFailedEmpty what="interviews" onRetry={() => void list.refetch()} />
          ) : list.isLoading ? (
            <span aria-hidden />
          ) : (
            emptyText
          ),
        }}
        pagination={{
          current: state.page,
          pageSize: INTERVIEWS_PAGE_SIZE,
          total,
          showSizeChanger: false,
          showTotal: (n) => `${n} ${n === 1 ? 'interview' : 'interviews'}`,
        }}
      />
      {canWrite ? (
        <>
          <InterviewFormModal
            projectId={project.id}
            open={editing.open}
            interview={editing.interview}
            me={me}
            onClose={() => setEditing((e) => ({ ...e, open: false }))}
          />
          <CancelInterviewModal
            projectId={project.id}
            open={canceling.open}
            interview={canceling.interview}
            onClose={() => setCanceling((c) => ({ ...c, open: false }))}
          />
        </>
      ) : null}
    </Flex>
  );
}
