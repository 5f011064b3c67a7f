import { trackerFileProblem } from './tracker-file';

describe('file checks before sending', () => {
  it('names the api’s reason for a wrong extension, and refuses empty and oversized files', () => {
    expect(trackerFileProblem({ name: 'tracker.txt', size: 10 })).toBe('Only CSV files are accepted. This may just require adding a .csv to the filename.');
    expect(trackerFileProblem({ name: 'tracker.xls', size: 10 })).toBe('Only .xlsx files are accepted.');
    expect(trackerFileProblem({ name: 'Tracker.XLSX', size: 10 })).toBeNull();
    expect(trackerFileProblem({ name: 'tracker.csv', size: 0 })).toMatch(/empty/);
    expect(trackerFileProblem({ name: 'tracker.csv', size: 21 * 1024 * 1024 })).toBe('The file is larger than 20 MB, the most a task tracker file may be.');
  });
});
