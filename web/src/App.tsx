import { SECOND_FACTOR_PATHS, targetAfterLogin } from '@wbs/shared/landing';
import { type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { AuthBridge } from './AuthBridge.tsx';
import { secondFactorReturn, useSession } from './api/session.ts';
import { LandingPage } from './pages/LandingPage.tsx';
import { LogoutPage } from './pages/LogoutPage.tsx';
import { StepUpBridge } from './second-factor/StepUpBridge.tsx';
import { ErrorBoundary } from './ui/ErrorBoundary.tsx';
import { lazyWithRetry as lazy } from './ui/lazyWithRetry.tsx';
import { PageSpinner } from './ui/PageSpinner.tsx';
import { PublicLayout } from './ui/PublicLayout.tsx';

const LoginPage = lazy(() => import('./pages/LoginPage.tsx'));
const ForgotPasswordPage = lazy(() => import('./pages/ForgotPasswordPage.tsx'));
const ChangePasswordPage = lazy(() => import('./pages/ChangePasswordPage.tsx'));
const CaseWizardPage = lazy(() => import('./case/CaseWizardPage.tsx'));
const CheckCasePage = lazy(() => import('./tracking/CheckCasePage.tsx'));
const VerifyReceiptPage = lazy(() => import('./receipts/VerifyReceiptPage.tsx'));
const AdminArea = lazy(() => import('./admin/AdminArea.tsx'));
const VerifyPage = lazy(() => import('./second-factor/VerifyPage.tsx'));
const EnrolPage = lazy(() => import('./second-factor/EnrolPage.tsx'));
const ConfirmNoticePage = lazy<object>(() =>
  import('./notices/NoticeLinkPage.tsx').then((module) => ({ default: module.ConfirmNoticePage })),
);
const OptOutNoticePage = lazy<object>(() =>
  import('./notices/NoticeLinkPage.tsx').then((module) => ({ default: module.OptOutNoticePage })),
);
const StopDigestPage = lazy<object>(() =>
  import('./notices/NoticeLinkPage.tsx').then((module) => ({ default: module.StopDigestPage })),
);

/**
 * A session waiting for its second factor sees the screen of that step and nothing else (sign-out
 * aside): every other route of the gateway refuses it anyway. Where the user was is kept, to return
 * there once the step is done.
 */
function SecondFactorGate({ children }: { children: ReactNode }) {
  const { pending } = useSession();
  const [location] = useLocation();
  if (!pending) return <>{children}</>;
  const screen = SECOND_FACTOR_PATHS[pending];
  if (location === screen || location === '/auth/logout') return <>{children}</>;
  // Only a page asked for under /admin is worth returning to (the landing page is where anyone starts).
  if (location.startsWith('/admin/')) secondFactorReturn.set(location);
  return <Redirect to={screen} replace />;
}

/** Signed-in users are redirected away from /auth/* to their landing target. */
function GuestOnly({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  if (loading) return <PageSpinner />;
  if (user) return <Redirect to={targetAfterLogin(user.userTypeId)} replace />;
  return <>{children}</>;
}

const publicPage = (node: ReactNode) => (
  <PublicLayout>
    <ErrorBoundary offerReload>
      <Suspense fallback={<PageSpinner />}>{node}</Suspense>
    </ErrorBoundary>
  </PublicLayout>
);

export function App() {
  return (
    <>
      <AuthBridge />
      <StepUpBridge />
      <SecondFactorGate>
        <Switch>
          <Route path="/">{publicPage(<LandingPage />)}</Route>
          <Route path="/auth/login">
            {publicPage(
              <GuestOnly>
                <LoginPage />
              </GuestOnly>,
            )}
          </Route>
          <Route path="/auth/forgotpassword">
            {publicPage(
              <GuestOnly>
                <ForgotPasswordPage />
              </GuestOnly>,
            )}
          </Route>
          <Route path="/auth/logout">
            <LogoutPage />
          </Route>
          <Route path={SECOND_FACTOR_PATHS.verify}>{publicPage(<VerifyPage />)}</Route>
          <Route path={SECOND_FACTOR_PATHS.enrol}>{publicPage(<EnrolPage />)}</Route>
          <Route path="/user/changepassword">{publicPage(<ChangePasswordPage />)}</Route>
          <Route path="/case/create">
            {/* The page itself lets a signed-in user in only when allowed to file (CaseWizardPage.tsx). */}
            {publicPage(<CaseWizardPage />)}
          </Route>
          <Route path="/admin/checkcase">{publicPage(<CheckCasePage />)}</Route>
          <Route path="/verifikasi-tanda-terima">{publicPage(<VerifyReceiptPage />)}</Route>
          {/* Mail links: the token rides in the fragment (docs/product/notifications.md#pelapor). */}
          <Route path="/notifikasi/konfirmasi">{publicPage(<ConfirmNoticePage />)}</Route>
          <Route path="/notifikasi/berhenti">{publicPage(<OptOutNoticePage />)}</Route>
          <Route path="/notifikasi/ringkasan">{publicPage(<StopDigestPage />)}</Route>
          <Route path="/admin" nest>
            <ErrorBoundary offerReload>
              <Suspense fallback={<PageSpinner />}>
                <AdminArea />
              </Suspense>
            </ErrorBoundary>
          </Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </SecondFactorGate>
    </>
  );
}
