import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@portal/shared/testing';
import { sampleControls } from '../../testing/sample-reports';
import { CHART_UNAVAILABLE } from './report-section';
import { ReportView } from './report-view';

// The chart's chunk cannot be loaded (a deploy replaced it, the network dropped).
jest.mock('./report-chart', () => {
  throw new Error('Loading chunk report-chart failed');
});

describe('a report chart that cannot be loaded', () => {
  it('gives way to the table view of its numbers, and the rest of the report stays', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      renderWithProviders(<ReportView report={sampleControls()} />);
      const coverage = screen.getByRole('region', { name: 'Coverage by project' });
      expect(await within(coverage).findByText(CHART_UNAVAILABLE)).toBeInTheDocument();
      const cells = within(within(coverage).getByRole('table'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
      expect(cells).toEqual(['SOC 2 Type II', '20', '18', '8', '40%', '50', '21']);
      expect(within(coverage).queryByRole('img')).not.toBeInTheDocument();
      expect(screen.getByRole('region', { name: 'Coverage' })).toBeInTheDocument();
    } finally {
      logged.mockRestore();
    }
  });
});
