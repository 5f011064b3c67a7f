import {
  activePreset,
  addDays,
  coverageText,
  exportPath,
  fallbackFileName,
  pdfPath,
  presetPeriod,
  reportCallQueryOf,
  reportsStateFrom,
  shownKind,
  withoutCompanyFilters,
  withReportsState,
} from './report-state';

const read = (query: string) => reportsStateFrom(new URLSearchParams(query));

describe('the reports page state in the address', () => {
  it('reads the report, the project and the period', () => {
    expect(read('report=requests&project=p1&from=2026-01-01&to=2026-03-31')).toEqual({
      report: 'requests',
      projectId: 'p1',
      from: '2026-01-01',
      to: '2026-03-31',
    });
    expect(read('')).toEqual({ report: null, projectId: null, from: null, to: null });
    expect(read('from=2026-01-01')).toEqual({ report: null, projectId: null, from: '2026-01-01', to: null });
  });

  it('falls back to the default for what the api would refuse', () => {
    expect(read('report=risks').report).toBeNull();
    expect(read(`project=${'x'.repeat(101)}`).projectId).toBeNull();
    expect(read('project=').projectId).toBeNull();
    // not a day, not a day of the calendar: that end only
    expect(read('from=yesterday&to=2026-03-31')).toMatchObject({ from: null, to: '2026-03-31' });
    expect(read('from=2026-02-30&to=2026-03-31')).toMatchObject({ from: null, to: '2026-03-31' });
    // ends in the wrong order, or a period longer than the api takes: both ends go
    expect(read('from=2026-04-01&to=2026-03-31')).toMatchObject({ from: null, to: null });
    expect(read('from=2010-01-01&to=2026-03-31')).toMatchObject({ from: null, to: null });
  });

  it("shows the address's report when the caller has it, else the first the caller has", () => {
    expect(shownKind(read('report=workload'), ['status', 'workload'])).toBe('workload');
    expect(shownKind(read('report=requests'), ['status', 'workload'])).toBe('status');
    expect(shownKind(read(''), ['requests'])).toBe('requests');
    expect(shownKind(read('report=status'), [])).toBeNull();
  });

  it('writes the state in one order, keeps other parameters and leaves empty ones out', () => {
    const prev = new URLSearchParams('to=2026-03-31&utm=mail&report=status&project=p1');
    expect(withReportsState(prev, { report: 'controls' }).toString()).toBe(
      'utm=mail&report=controls&project=p1&to=2026-03-31',
    );
    expect(withReportsState(prev, { projectId: null, from: '2026-01-01' }).toString()).toBe(
      'utm=mail&report=status&from=2026-01-01&to=2026-03-31',
    );
    expect(withReportsState(prev, { from: null, to: null, projectId: null }).toString()).toBe('utm=mail&report=status');
  });

  it('drops only the project for another company', () => {
    expect(withoutCompanyFilters(new URLSearchParams('report=requests&project=p1&from=2026-01-01')).toString()).toBe(
      'report=requests&from=2026-01-01',
    );
  });
});

describe('the report calls', () => {
  it('send the period only to the reports it applies to, the project and the day to all', () => {
    const state = read('project=p1&from=2026-01-01&to=2026-03-31');
    expect(reportCallQueryOf('status', state, '2026-11-23')).toEqual({
      projectId: 'p1',
      from: '2026-01-01',
      to: '2026-03-31',
      today: '2026-11-23',
    });
    expect(reportCallQueryOf('requests', state, '2026-11-23')).toEqual({
      projectId: 'p1',
      from: '2026-01-01',
      to: '2026-03-31',
      today: '2026-11-23',
    });
    for (const kind of ['controls', 'workload'] as const) {
      expect(reportCallQueryOf(kind, state, '2026-11-23')).toEqual({
        projectId: 'p1',
        from: undefined,
        to: undefined,
        today: '2026-11-23',
      });
    }
  });
});

describe('the files of the page', () => {
  it("asks for the report's file and the PDF with the filters and the caller's day", () => {
    const state = read('report=requests&project=p 1&from=2026-01-01');
    expect(exportPath('c1', 'requests', state, '2026-11-23', 'xlsx')).toBe(
      '/companies/c1/reports/requests/export?format=xlsx&projectId=p%201&from=2026-01-01&today=2026-11-23',
    );
    expect(pdfPath('c/1', read(''), '2026-11-23')).toBe('/companies/c%2F1/reports/pdf?today=2026-11-23');
    // the "as of now" reports' files keep the period: their heading says it was not applied
    expect(exportPath('c1', 'workload', state, '2026-11-23', 'csv')).toBe(
      '/companies/c1/reports/workload/export?format=csv&projectId=p%201&from=2026-01-01&today=2026-11-23',
    );
  });

  it('names a file as the api does when its name is not given', () => {
    const acme = { id: 'c1', name: 'Acme Corp' };
    expect(fallbackFileName('status', acme, '2026-11-23', 'csv')).toBe('status-report-acme-corp-2026-11-23.csv');
    expect(fallbackFileName('all', acme, '2026-11-23', 'pdf')).toBe('report-acme-corp-2026-11-23.pdf');
  });
});

describe('the period presets', () => {
  it("end on the caller's day, both ends included", () => {
    expect(presetPeriod('last30', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(presetPeriod('last90', '2026-11-23')).toEqual({ from: '2026-08-26', to: '2026-11-23' });
    expect(presetPeriod('year', '2026-11-23')).toEqual({ from: '2026-01-01', to: '2026-11-23' });
    expect(presetPeriod('all', '2026-11-23')).toEqual({ from: null, to: null });
  });

  it('counts days across months, years and leap days', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('recognise the period that is one of them', () => {
    expect(activePreset({ from: '2026-08-26', to: '2026-11-23' }, '2026-11-23')).toBe('last90');
    expect(activePreset({ from: null, to: null }, '2026-11-23')).toBe('all');
    expect(activePreset({ from: '2026-08-26', to: '2026-11-22' }, '2026-11-23')).toBeNull();
  });
});

describe('what a report covers', () => {
  it('says the period and the projects of the status and requests reports', () => {
    expect(coverageText('status', { from: null, to: null }, null, true)).toBe(
      'Tasks created at any time, all projects',
    );
    expect(coverageText('status', { from: '2026-01-01', to: '2026-03-31' }, 'SOC 2', true)).toBe(
      'Tasks created from 1/1/2026 to 3/31/2026, SOC 2',
    );
    expect(coverageText('requests', { from: '2026-01-01', to: null }, null, true)).toBe(
      'Requests visible to you created since 1/1/2026, all projects',
    );
    expect(coverageText('requests', { from: null, to: '2026-03-31' }, null, true)).toBe(
      'Requests visible to you created up to 3/31/2026, all projects',
    );
  });

  it('says that the period does not apply to controls and workload', () => {
    expect(coverageText('controls', { from: '2026-01-01', to: null }, 'SOC 2', true)).toBe(
      'Controls and their evidence, SOC 2. As of today; the period does not apply.',
    );
    expect(coverageText('workload', { from: null, to: null }, null, true)).toBe(
      'Open tasks and active requests by person, all projects. As of today; the period does not apply.',
    );
    expect(coverageText('workload', { from: null, to: null }, null, false)).toBe(
      'Open tasks by person, all projects. As of today; the period does not apply.',
    );
  });
});
