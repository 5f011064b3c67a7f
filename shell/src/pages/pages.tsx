import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { Button, Card, Col, Empty, Result, Row, Typography } from '@portal/shared/ui';
import { NotFoundResult, PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { navigationFor } from '../app/navigation';

type Root = { session: SessionState };

/** Home when the projects module is off: the modules the user has. */
export function ModulesHome() {
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const items = navigationFor(access?.modulesAccess ?? null);
  return (
    <div data-testid="modules-home">
      <PageHeader title="Home" />
      <Typography.Paragraph>Welcome{user ? `, ${user.firstName}` : ''}. These are the modules you can use in this company.</Typography.Paragraph>
      {items.length ? (
        <Row gutter={[16, 16]}>
          {items.map((i) => (
            <Col key={i.key} xs={24} sm={12} lg={6}>
              <Link to={i.path}>
                <Card hoverable title={i.label}>
                  Open {i.label}
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      ) : (
        <Empty description="No modules are available to you in this company." />
      )}
    </div>
  );
}

export function NotFoundPage() {
  return <NotFoundResult />;
}

export function NoModuleAccess({ module }: { module: string }) {
  return (
    <Result
      status="403"
      title={`You do not have access to ${module}`}
      subTitle="Module access for this company does not include it. Ask your company administrator if you need it."
      extra={
        <Link to="/">
          <Button type="primary">Back to Home</Button>
        </Link>
      }
    />
  );
}

/** Public page shown after an account is removed. */
export function AccountRemovedPage() {
  return (
    <div style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status="info"
        title="Your account has been removed"
        subTitle="You no longer have access to the portal. If you think this is a mistake, contact your administrator."
        extra={
          <a href="/auth/saml/login">
            <Button>Sign in with another account</Button>
          </a>
        }
      />
    </div>
  );
}
