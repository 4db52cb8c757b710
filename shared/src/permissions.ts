/**
 * The one permission matrix of the product (spec section 6).
 *
 * Reading chosen (docs/product/roles-and-screens.md#roles-and-scope): reading B of section 6, with type 1 as the
 * holding's master-data administrator: 1 Administrator, 2 company admin, 3 partner (admin),
 * 4 company staff (analyst), 5 partner staff, 6 signed-in whistleblower. The gateway enforces this
 * matrix on every route; the web app uses the same matrix only to decide what to show.
 */
import { PRIVILEGED_ROLE, type UserTypeId } from './constants.ts';

/** Who is asking: a signed-in user, or `null` for an anonymous visitor (reporter or tracker). */
export type Subject = { userTypeId: UserTypeId; role: number | null } | null;

export const ACTIONS = [
  'reference:read',
  'session:read',
  'password:change',
  'password:reset-staff',
  'profile:manage',
  'partners:manage',
  'companies:manage',
  'companies:list-own',
  'case-statuses:read',
  'case-statuses:manage',
  'case-categories:read',
  'case-categories:manage',
  'partner-staff:manage',
  'analysts:manage',
  'user-roles:read',
  'case-lines:read',
  'cases:create',
  'cases:list',
  'cases:read',
  'case-reporter:read',
  'case-logs:create',
  'case-logs:read-full',
  'case-attachments:download',
  'cases:export',
  'tracking:use',
  'dashboard:read',
  'insights:read',
  'case-messages:read',
  'case-messages:write',
  'case-messages:marks',
  'case-evidence:add',
  'uploads:use',
  'identity-access:read-own',
  'audit-trail:export',
  'notices:read',
  'notices:unsubscribe',
  'mail-dead-letters:manage',
  'handling-deadlines:read',
  'handling-deadlines:manage',
  'reporter-notices:use',
  'reporter-notices:own',
  'second-factors:own',
  'retention:read',
  'retention:manage',
  'disposals:read',
  'disposals:manage',
  'processing-records:read',
] as const;
export type Action = (typeof ACTIONS)[number];

type Rule = (subject: Subject) => boolean;

const anyone: Rule = () => true;
const signedIn: Rule = (s) => s !== null;
const types =
  (...allowed: UserTypeId[]): Rule =>
  (s) =>
    s !== null && allowed.includes(s.userTypeId);
const either =
  (...rules: Rule[]): Rule =>
  (s) =>
    rules.some((rule) => rule(s));
/** Types 4 and 5 act on cases only with the privileged role flag. */
const privilegedStaff: Rule = (s) =>
  s !== null && (s.userTypeId === 4 || s.userTypeId === 5) && s.role === PRIVILEGED_ROLE;
const caseHandlers = either(types(2, 3), privilegedStaff);

export const PERMISSIONS: Record<Action, Rule> = {
  'reference:read': anyone,
  'session:read': signedIn,
  'password:change': signedIn,
  'password:reset-staff': types(2, 3),
  'profile:manage': types(6),
  'partners:manage': types(1),
  'companies:manage': types(1),
  'companies:list-own': types(1, 3, 5),
  'case-statuses:read': anyone,
  'case-statuses:manage': types(1),
  'case-categories:read': anyone,
  'case-categories:manage': types(2),
  'partner-staff:manage': types(3),
  'analysts:manage': types(2),
  'user-roles:read': types(1, 2, 3),
  'case-lines:read': signedIn,
  'cases:create': either((s) => s === null, caseHandlers),
  // Type 1 reads the group's case list and details (spec §2 lists /admin/case for it), but is a
  // master-data administrator, not a handler: no log entries, no export, no downloads, no reporter
  // identity or contact, and its own log-note view is the masked one (docs/product/roles-and-screens.md#administrator).
  'cases:list': types(1, 2, 3, 4, 5, 6),
  'cases:read': types(1, 2, 3, 4, 5, 6),
  /** The reporter's identity and contact fields in a case detail (the name has its own rule for type 6). */
  'case-reporter:read': types(2, 3, 4, 5, 6),
  'case-logs:create': caseHandlers,
  'case-logs:read-full': types(2, 3, 4, 5),
  'case-attachments:download': types(2, 3, 4, 5, 6),
  'cases:export': caseHandlers,
  'tracking:use': anyone,
  'dashboard:read': types(2, 3, 4, 5),
  // Peta Laporan and Statistik (docs/product/insights.md): aggregate figures of the caller's scope. The
  // administrator reads the group's (it reads the group's cases already); never a reporter's identity.
  'insights:read': types(1, 2, 3, 4, 5),
  // Messages: whoever reads a case reads its conversation; whoever writes activity logs
  // writes to the reporter, and so does the signed-in reporter (type 6) on its own cases.
  'case-messages:read': types(2, 3, 4, 5, 6),
  'case-messages:write': either(caseHandlers, types(6)),
  'case-messages:marks': types(2, 3, 4, 5),
  /** Tambah Bukti by the signed-in reporter on its own cases (the tracker uses tracking:use). */
  'case-evidence:add': types(6),
  /**
   * Resumable uploads into a draft (docs/adr/0066-resumable-evidence-uploads.md): whoever may open a
   * draft for some form — the wizard's filers, the tracker and the pelapor (Tambah Bukti), the handlers
   * (activity logs). The draft itself says which form, caller and case it serves.
   */
  'uploads:use': either((s) => s === null, caseHandlers, types(6)),
  'identity-access:read-own': types(6),
  // Audit trail: the group administrator exports the whole trail, a company admin its own staff's.
  'audit-trail:export': types(1, 2),
  // Handling deadlines: the group sets each company's handling deadlines; company and partner admins read theirs.
  'handling-deadlines:read': types(1, 2, 3),
  'handling-deadlines:manage': types(1),
  // Notices: the bell and its preferences for every staff user (the administrator gets the security
  // notices); mails that failed every retry are the administrator's to look at and send again.
  'notices:read': types(1, 2, 3, 4, 5),
  /** The digest's one-click unsubscribe: a mail client posts it, signed in or not; the link's token proves it. */
  'notices:unsubscribe': anyone,
  'mail-dead-letters:manage': types(1),
  // A reporter's e-mail notice of a reply (docs/product/notifications.md#pelapor). Open to anyone: each
  // route asks for its own proof (the tracker's number and password, or a mail link's token).
  'reporter-notices:use': anyone,
  /** The same for the signed-in pelapor, on its own cases only (the case scope check). */
  'reporter-notices:own': types(6),
  /**
   * The user's own second factors (docs/product/second-factor.md). Resets of another user's factors go
   * with managing that account: the master-data resource's own action.
   */
  'second-factors:own': signedIn,
  // Retention and disposal (docs/product/retention.md): the administrator is the group's data
  // protection officer. It sets the retention periods, keeps the disposal register and reads the
  // records of processing; nobody else sees them (the register names cases, however sparsely).
  'retention:read': types(1),
  'retention:manage': types(1),
  'disposals:read': types(1),
  'disposals:manage': types(1),
  'processing-records:read': types(1),
};

export function can(subject: Subject, action: Action): boolean {
  return PERMISSIONS[action](subject);
}

/** Scope of the data a signed-in user may see, derived from the session and never from a request. */
export type Scope =
  | { kind: 'all' }
  | { kind: 'partner'; partnerId: number }
  | { kind: 'company'; companyId: number; caseLineId: number | null; staffOnly: boolean }
  | { kind: 'whistleblower'; whistleblowerId: number; companyId: number }
  | { kind: 'none' };

export const USER_TYPE_NAMES: Record<UserTypeId, string> = {
  1: 'Administrator',
  2: 'Admin Perusahaan',
  3: 'Partner',
  4: 'Staff Perusahaan',
  5: 'Staff Partner',
  6: 'Pelapor',
};
