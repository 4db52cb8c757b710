/**
 * The reporter's e-mail notice calls (docs/product/notifications.md#pelapor): the tracker proves
 * number and password in the POST body (held in the view's memory only), the pelapor names its case
 * and the cookie does the rest; the mail links' tokens go in a POST body, never in a URL the page
 * requests.
 */
import type {
  ReporterNoticeConfirmReply,
  ReporterNoticeRequestedReply,
  ReporterNoticeStatusReply,
} from '@wbs/shared/api/reporter-notices';
import { api } from '../api/client.ts';
import type { CaseAccess } from '../case/messages/access.ts';

const caseId = (access: Extract<CaseAccess, { kind: 'case' }>) => ({
  params: { path: { id: String(access.caseId) } },
});
const proof = (access: Extract<CaseAccess, { kind: 'tracker' }>) => ({
  caseNumber: access.caseNumber,
  password: access.password,
});

export async function fetchNoticeStatus(access: CaseAccess): Promise<ReporterNoticeStatusReply> {
  return access.kind === 'tracker'
    ? api.POST('/api/v1/tracking/reporter-notices/status', { body: proof(access), authRedirect: false })
    : api.GET('/api/v1/cases/{id}/reporter-notices', caseId(access));
}

export async function askForNotices(
  access: CaseAccess,
  email: string,
): Promise<ReporterNoticeRequestedReply> {
  return access.kind === 'tracker'
    ? api.POST('/api/v1/tracking/reporter-notices', {
        body: { ...proof(access), email },
        authRedirect: false,
      })
    : api.POST('/api/v1/cases/{id}/reporter-notices', { ...caseId(access), body: { email } });
}

export async function stopNotices(access: CaseAccess): Promise<ReporterNoticeStatusReply> {
  return access.kind === 'tracker'
    ? api.POST('/api/v1/tracking/reporter-notices/stop', { body: proof(access), authRedirect: false })
    : api.DELETE('/api/v1/cases/{id}/reporter-notices', caseId(access));
}

export async function confirmNotices(token: string): Promise<ReporterNoticeConfirmReply> {
  return api.POST('/api/v1/reporter-notices/confirm', { body: { token }, authRedirect: false });
}

export async function optOutOfNotices(token: string): Promise<ReporterNoticeRequestedReply> {
  return api.POST('/api/v1/reporter-notices/opt-out', { body: { token }, authRedirect: false });
}

/**
 * The token of a mail link, read from the URL fragment (which the browser never sends), then removed
 * from the address bar and the history entry so it does not linger there.
 */
export function takeTokenFromFragment(location: Pick<Location, 'hash' | 'pathname' | 'search'>): string {
  const token = decodeURIComponent(location.hash.replace(/^#/, '')).trim();
  if (location.hash !== '') {
    window.history.replaceState(window.history.state, '', `${location.pathname}${location.search}`);
  }
  return token;
}

/** The digest's stop link: the same one-click address mail programs post to, pressed on the page. */
export async function stopDigest(token: string): Promise<{ message: string }> {
  return api.POST('/api/v1/notice-preferences/unsubscribe', {
    params: { query: { token } },
    authRedirect: false,
  });
}
