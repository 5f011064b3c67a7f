import { useSelector } from 'react-redux';
import { Card, Col, Row, Statistic, Typography } from '@portal/shared/ui';
import { ComingSoon, PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';

type Root = { session: SessionState };

/** Home: the dashboard. Its project list, charts and "my requests" arrive with the projects module. */
export function DashboardPage() {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  return (
    <div data-testid="dashboard">
      <PageHeader title="Home" />
      <Typography.Paragraph>
        Welcome{user ? `, ${user.firstName}` : ''}.{company ? ` You are working in ${company.name}.` : ''}
      </Typography.Paragraph>
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title="Company" value={company?.name ?? 'None selected'} />
          </Card>
        </Col>
      </Row>
      <ComingSoon what="The project list, activation, charts and 'my requests'" />
    </div>
  );
}
