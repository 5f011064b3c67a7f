import { Alert } from '@portal/shared/ui/extra';
import type { ProblemReport } from '../model/problems';

/** A refused apply or import, in its dialog: the reason, then the rows or tasks it names. */
export function ProblemAlert({ report }: { report: ProblemReport }) {
  const listed = report.problems.length > 0;
  return (
    <Alert
      type="error"
      showIcon
      title={report.title}
      description={
        listed ? (
          <ul aria-label="Problems" style={{ margin: 0, paddingInlineStart: 18 }}>
            {report.problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
            {report.more ? <li>{`and ${report.more} more`}</li> : null}
          </ul>
        ) : undefined
      }
      style={{ marginBottom: 16 }}
    />
  );
}
