/**
 * Schedules a new interview or reschedules one. The date, time and zone are checked as the user picks
 * them with the api's own rules (checkInterviewTime): a weekend day, a time in the past or a day more
 * than 62 days out shows the catalogue's message under the field, and nothing is sent while a rule
 * fails. The pickers take typed values (11/28/2026, 10:00) and no day is disabled: the rules speak
 * for themselves. A refusal of the api (any code, the calendar service's too) shows in an alert at
 * the top, with its details; the form keeps what was typed.
 */
import { useEffect, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { DatePicker, dayjs, Form, Input, Select, TimePicker, type Dayjs } from '@portal/shared/ui/extra';
import { publishToast } from '@portal/shared/web/events';
import type { Interview, InterviewPerson } from '@portal/shared/core/interviews';
import { FormModal } from '../../projects/components/form-modal';
import { interviewsApi } from '../interviews-api';
import { FailureAlert, failureOf, type Failure } from './failure-alert';
import {
  createRequest,
  draftOf,
  draftProblems,
  durationChoices,
  interviewDayOffered,
  newDraft,
  pickerTime,
  timeZoneNames,
  typedTime,
  uiMessage,
  updateRequest,
  type FieldProblem,
  type InterviewDraft,
  type InterviewField,
} from '../model/interview-form';
import { durationText, interviewPersonName } from '../model/interview-list';

/** The form's values: the date picker holds a dayjs value, everything else (the time too: HH:mm) as sent. */
interface FormValues extends Omit<InterviewDraft, 'date'> {
  date?: Dayjs | null;
}

const DATE_FORMATS = ['M/D/YYYY', 'MM/DD/YYYY'];
const TIME_FORMATS = ['HH:mm', 'H:mm'];

function draftOfValues(values: FormValues): InterviewDraft {
  const { date, time, ...rest } = values;
  return { ...rest, date: date?.isValid() ? date.format('YYYY-MM-DD') : '', time: time ?? '' };
}

function valuesOfDraft(draft: InterviewDraft): FormValues {
  const { date, ...rest } = draft;
  return { ...rest, date: date ? dayjs(date) : null };
}

/** The picker's day when nothing is chosen yet (its panel builds the time on it). */
const PICKER_START = dayjs(pickerTime('00:00'));

interface TimeFieldProps {
  id?: string;
  value?: string;
  onChange?: (time: string) => void;
  [aria: `aria-${string}`]: unknown;
}

/**
 * The Time field: a TimePicker whose value is the HH:mm text, a time of the interview's zone. The
 * picker's values sit on a fixed day, and what is typed is read as typed, so a time never moves with
 * the clocks of the browser's zone (02:30 typed on the day they go forward stays 02:30).
 */
function TimeField({ value, onChange, ...rest }: TimeFieldProps) {
  const picked = pickerTime(value);
  const take = (text: string) => {
    const time = typedTime(text);
    if (time && time !== value) onChange?.(time);
  };
  return (
    <TimePicker
      {...rest}
      value={picked ? dayjs(picked) : null}
      defaultPickerValue={PICKER_START}
      onChange={(time) => onChange?.(time?.isValid() ? time.format('HH:mm') : '')}
      onKeyDown={(e: KeyboardEvent<HTMLElement>) => {
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement) take(e.target.value);
      }}
      onBlur={(e: FocusEvent<HTMLElement>) => {
        if (e.target instanceof HTMLInputElement) take(e.target.value);
      }}
      format={TIME_FORMATS}
      minuteStep={5}
      placeholder="HH:mm"
      needConfirm={false}
      style={{ width: '100%' }}
    />
  );
}

/** Chooses the caller as organizer once the people are known, unless an organizer is chosen already. */
function DefaultOrganizer({ organizerId }: { organizerId?: string }) {
  const form = Form.useFormInstance<FormValues>();
  useEffect(() => {
    if (organizerId && !form.getFieldValue('organizerId') && !form.isFieldTouched('organizerId'))
      form.setFieldValue('organizerId', organizerId);
  }, [form, organizerId]);
  return null;
}

/** A refusal of the api with its field messages in the form's words (FormModal puts them on the fields). */
function inFormWords(error: unknown): unknown {
  const e = error as { data?: { message?: unknown; details?: unknown } } | undefined;
  if (!e?.data || !Array.isArray(e.data.details)) return error;
  let message = e.data.message;
  const details = (e.data.details as { field?: unknown; message?: unknown }[]).map((d) => {
    if (typeof d?.field !== 'string' || typeof d.message !== 'string') return d;
    const worded = uiMessage(d.field.split('.')[0], d.message);
    // the api's message is often its first detail's
    if (message === d.message) message = worded;
    return { ...d, message: worded };
  });
  return { ...e, data: { ...e.data, message, details } };
}

const personOptions = (lists: (InterviewPerson[] | undefined)[]) => {
  const people = new Map<string, InterviewPerson>();
  for (const list of lists) for (const p of list ?? []) if (!people.has(p.id)) people.set(p.id, p);
  return [...people.values()].map((p) => ({ value: p.id, label: `${interviewPersonName(p)} (${p.email})` }));
};

/**
 * The rules passed when the form was checked, but the clock has moved on since (a time now in the
 * past): the problems go on their fields as the api's field errors would (FormModal puts them there).
 */
class DraftRefused {
  readonly data: { details: FieldProblem[] };
  constructor(problems: FieldProblem[]) {
    this.data = { details: problems };
  }
}

export interface InterviewFormModalProps {
  projectId: string;
  open: boolean;
  /** The interview to reschedule; none schedules a new one. */
  interview?: Interview | null;
  /** The caller's user id: the default organizer when they may be one. */
  me?: string;
  onClose: () => void;
}

export function InterviewFormModal({ projectId, open, interview, me, onClose }: InterviewFormModalProps) {
  // loaded as soon as a writer opens the tab, so the form is ready when asked for
  const people = interviewsApi.useInterviewsPeopleQuery(projectId);
  const [create] = interviewsApi.useInterviewsCreateMutation();
  const [update] = interviewsApi.useInterviewsUpdateMutation();
  const [failure, setFailure] = useState<Failure | null>(null);
  const rescheduling = Boolean(interview);

  // The form opens at once; the people's pickers say they are loading, and the caller becomes the
  // organizer (when they may be one) as soon as the people are known.
  const draft = interview ? draftOf(interview) : newDraft(people.data, me);

  const close = () => {
    setFailure(null);
    onClose();
  };

  /** A field's rule: the draft's problem on that field, if any (the same check as the request's). */
  const rule = (field: InterviewField) => (form: { getFieldsValue: (all: true) => unknown }) => ({
    validator: async () => {
      const problem = draftProblems(
        draftOfValues(form.getFieldsValue(true) as FormValues),
        interview ?? undefined,
      ).find((p) => p.field === field);
      if (problem) throw new Error(problem.message);
    },
  });

  /** Sends the create or the change; resolves with the saved interview (null: nothing changed). */
  const save = async (values: InterviewDraft): Promise<Interview | null> => {
    if (!interview) {
      const request = createRequest(values);
      if (!request.body) throw new DraftRefused(request.problems);
      return create({ projectId, body: request.body }).unwrap();
    }
    const request = updateRequest(values, interview);
    if (!request.body) throw new DraftRefused(request.problems);
    if (!Object.keys(request.body).length) return null;
    return update({ projectId, interviewId: interview.id, body: request.body }).unwrap();
  };

  const submit = async (values: FormValues) => {
    setFailure(null);
    let saved: Interview | null;
    try {
      saved = await save(draftOfValues(values));
    } catch (error) {
      if (error instanceof DraftRefused) throw error;
      const refused = inFormWords(error);
      setFailure(
        failureOf(
          refused,
          interview ? 'The interview could not be rescheduled.' : 'The interview could not be scheduled.',
        ),
      );
      throw refused;
    }
    if (!saved) {
      publishToast({ severity: 'info', summary: 'Nothing to change' });
      return;
    }
    publishToast({ severity: 'success', summary: interview ? 'Interview rescheduled' : 'Interview scheduled' });
    const failed = saved.invitations?.failed ?? 0;
    if (failed > 0) {
      publishToast({
        severity: 'warn',
        summary: 'Some invitations could not be sent',
        detail: `${failed} ${failed === 1 ? 'invitation was' : 'invitations were'} not sent: download the invitation and share it with them.`,
      });
    }
  };

  const zones = timeZoneNames([draft.timeZone]);
  const durations = durationChoices(draft.durationMinutes);
  const organizers = personOptions([people.data?.organizers, interview?.organizer ? [interview.organizer] : []]);
  const interviewers = personOptions([people.data?.interviewers, interview?.interviewers]);
  const attendees = personOptions([people.data?.attendees, interview?.attendees]);
  const peopleMissing = people.isLoading
    ? 'Loading the people…'
    : people.isError
      ? 'The people could not be loaded.'
      : 'No one to choose.';
  const defaultOrganizer = interview ? undefined : newDraft(people.data, me).organizerId;

  return (
    <FormModal<FormValues>
      title={rescheduling ? 'Reschedule interview' : 'Schedule interview'}
      okText={rescheduling ? 'Reschedule' : 'Schedule'}
      open={open}
      initialValues={valuesOfDraft(draft)}
      onSubmit={submit}
      onClose={close}
    >
      <FailureAlert failure={failure} />
      <DefaultOrganizer organizerId={defaultOrganizer} />
      <Form.Item name="title" label="Title" rules={[rule('title')]}>
        <Input autoFocus />
      </Form.Item>
      <Form.Item
        name="date"
        label="Date"
        rules={[rule('date')]}
        dependencies={['time', 'timeZone']}
        extra="Monday to Friday, within the next 62 days."
      >
        <DatePicker
          format={DATE_FORMATS}
          placeholder="M/D/YYYY"
          style={{ width: '100%' }}
          // weekends, past days and days past the limit are greyed out (and refused if typed)
          disabledDate={(d) =>
            !interviewDayOffered({ date: d.format('YYYY-MM-DD'), weekday: d.day() }, dayjs().format('YYYY-MM-DD'))
          }
        />
      </Form.Item>
      <Form.Item name="time" label="Time" rules={[rule('time')]} dependencies={['date', 'timeZone']}>
        <TimeField />
      </Form.Item>
      <Form.Item name="timeZone" label="Time zone" rules={[rule('timeZone')]}>
        <Select
          aria-label="Time zone"
          showSearch={{ optionFilterProp: 'label' }}
          options={zones.map((z) => ({ value: z, label: z }))}
        />
      </Form.Item>
      <Form.Item name="durationMinutes" label="Duration" rules={[rule('durationMinutes')]}>
        <Select aria-label="Duration" options={durations.map((m) => ({ value: m, label: durationText(m) }))} />
      </Form.Item>
      <Form.Item
        name="organizerId"
        label="Organizer"
        rules={[rule('organizerId')]}
        extra="A Lead Consultant or Consultant of the project."
      >
        <Select
          aria-label="Organizer"
          placeholder="Choose the organizer"
          options={organizers}
          loading={people.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          notFoundContent={peopleMissing}
        />
      </Form.Item>
      <Form.Item name="interviewerIds" label="Interviewers" rules={[rule('interviewerIds')]}>
        <Select
          mode="multiple"
          aria-label="Interviewers"
          placeholder="Choose interviewers"
          options={interviewers}
          loading={people.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          notFoundContent={peopleMissing}
        />
      </Form.Item>
      <Form.Item name="attendeeIds" label="Attendees" rules={[rule('attendeeIds')]}>
        <Select
          mode="multiple"
          aria-label="Attendees"
          placeholder="Choose attendees"
          options={attendees}
          loading={people.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          notFoundContent={peopleMissing}
        />
      </Form.Item>
      <Form.Item name="location" label="Location" rules={[rule('location')]}>
        <Input placeholder="A room, an address or a meeting link" />
      </Form.Item>
      <Form.Item name="description" label="Description" rules={[rule('description')]}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormModal>
  );
}
