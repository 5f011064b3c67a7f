/**
 * The reports' filters: the project (all of them by default) and the period of creation, typed or picked,
 * or one of the presets beside it. Every change goes to the address (the page reads it back).
 */
import { Button } from '@portal/shared/ui/button';
import { DatePicker, dayjs, Flex, Select, type Dayjs } from '@portal/shared/ui/extra';
import { REPORT_MAX_DAYS, type ReportOptions } from '@portal/shared/core/reports';
import { activePreset, PERIOD_PRESETS, presetPeriod, type ReportsPageState } from '../model/report-state';

/** Shown as the portal shows days (M/D/YYYY); the api's own YYYY-MM-DD can be typed too. */
const DAY_FORMATS = ['M/D/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'];
const ALL_PROJECTS = '';

const dayOf = (day: string | null) => (day ? dayjs(day, 'YYYY-MM-DD') : null);
const textOf = (day: Dayjs | null | undefined) => (day ? day.format('YYYY-MM-DD') : null);

/** A day the other end of the period already picked would put more than REPORT_MAX_DAYS apart. */
function tooFar(day: Dayjs, { from }: { from?: Dayjs }): boolean {
  return from !== undefined && Math.abs(day.startOf('day').diff(from.startOf('day'), 'day')) >= REPORT_MAX_DAYS;
}

export function ReportFilters({
  projects,
  state,
  today,
  onChange,
}: {
  projects: ReportOptions['projects'];
  state: ReportsPageState;
  today: string;
  onChange: (changes: Partial<ReportsPageState>) => void;
}) {
  const preset = activePreset(state, today);
  return (
    <Flex
      className="reports-screen-controls"
      gap="small"
      wrap
      align="center"
      role="group"
      aria-label="Report filters"
      style={{ marginBottom: 16 }}
    >
      <Select
        aria-label="Project"
        style={{ minWidth: 240 }}
        value={state.projectId ?? ALL_PROJECTS}
        onChange={(value: string) => onChange({ projectId: value || null })}
        showSearch={{ optionFilterProp: 'label' }}
        options={[
          { value: ALL_PROJECTS, label: 'All projects' },
          ...projects.map((p) => ({ value: p.id, label: p.title })),
        ]}
      />
      <DatePicker.RangePicker
        aria-label="Created between"
        placeholder={['From', 'To']}
        format={DAY_FORMATS}
        allowEmpty={[true, true]}
        disabledDate={tooFar}
        value={[dayOf(state.from), dayOf(state.to)]}
        onChange={(days) => onChange({ from: textOf(days?.[0]), to: textOf(days?.[1]) })}
      />
      {PERIOD_PRESETS.map(({ key, label }) => (
        <Button
          key={key}
          size="small"
          type={preset === key ? 'primary' : 'default'}
          aria-pressed={preset === key}
          onClick={() => onChange(presetPeriod(key, today))}
        >
          {label}
        </Button>
      ))}
    </Flex>
  );
}
