import { apiProblemReport, problemReport } from './problems';

describe('problem reports', () => {
  it('uses the catalogue for known codes and lists at most 10 problems', () => {
    const details = Array.from({ length: 13 }, (_, i) => ({ field: 'file', message: `Row ${i + 2}, Task ID: repeated` }));
    const report = problemReport({ code: 'task_reference_id_already_exist_on_project', message: 'Row 2, Task ID: repeated', details }, 'x');
    expect(report.title).toBe('Task IDs must be unique or null');
    expect(report.problems).toHaveLength(10);
    expect(report.problems[0]).toBe('Row 2, Task ID: repeated');
    expect(report.more).toBe(3);
  });

  it('shows a malformed file’s server message, else "Malformed Task Tracker File", without repeating it', () => {
    expect(problemReport({ code: 'malformed_task_tracker', message: 'Row 4: the Task Title column is missing', details: [{ message: 'Row 4: the Task Title column is missing' }] }, 'x')).toEqual({
      title: 'Row 4: the Task Title column is missing',
      problems: [],
      more: 0,
    });
    expect(problemReport({ code: 'malformed_task_tracker', message: '' }, 'x').title).toBe('Malformed Task Tracker File');
  });

  it('reads an RTK Query failure, and a lost connection', () => {
    expect(apiProblemReport({ status: 404, data: { code: 'task_tracker_not_found', message: 'nope' } }, 'x').title).toBe('No templates found for the chosen practice.');
    expect(apiProblemReport({ status: 400, data: { code: 'validation_failed', message: 'taskIds must hold ids' } }, 'x').title).toBe('taskIds must hold ids');
    expect(apiProblemReport({ status: 'FETCH_ERROR', error: 'TypeError' }, 'x').title).toBe('The connection was lost. Try again.');
  });
});
