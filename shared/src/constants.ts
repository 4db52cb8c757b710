/** Business constants of the WBS product (spec sections 3, 4 and 9). */

export const USER_TYPES = {
  ADMINISTRATOR: 1,
  COMPANY_ADMIN: 2,
  PARTNER: 3,
  COMPANY_STAFF: 4,
  PARTNER_STAFF: 5,
  WHISTLEBLOWER: 6,
} as const;

export type UserTypeId = (typeof USER_TYPES)[keyof typeof USER_TYPES];
export const USER_TYPE_IDS: readonly UserTypeId[] = [1, 2, 3, 4, 5, 6];

/** wbsUserRole 1 is the privileged flag of types 4 and 5 (file, log, export). */
export const PRIVILEGED_ROLE = 1;
export const DEFAULT_ROLE_ID = 2;

export const LEGACY_CODE = { SUCCESS: 1, WARNING: 0, ERROR: -1 } as const;

export const DEFAULT_CASE_STATUS_ID = 1;
export const DEFAULT_CHANNEL_ID = 1;
export const GUEST_COMPANY_ID = 1;
/** Status ids at which a case must be (re)routed to a case line. */
export const STATUS_NEW_ID = 1;
export const STATUS_ROUTING_ID = 11;

export const CASE_NUMBER_PATTERN = /^WBS-\d{8}$/;

export const ATTACHMENT_EXTENSIONS = [
  'xls',
  'xlsx',
  'zip',
  'rar',
  'doc',
  'docx',
  'pdf',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'mp3',
  'mpga',
  'mpeg',
  'mp4',
  'mp4a',
  'mov',
  'avi',
  '3gp',
  'ppt',
  'pptx',
] as const;
export const ATTACHMENT_MAX_BYTES = 10_485_760;
export const ATTACHMENTS_PER_CASE = 5;
export const ATTACHMENTS_PER_LOG = 1;

export const PAGE_SIZES = [2, 5, 10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export const WHISTLEBLOWER_TYPES = [
  { id: 1, name: 'Pribadi' },
  { id: 2, name: 'Instansi' },
] as const;

export const COMMUNICATION_TYPES = [
  { id: 0, name: 'Telepon/HP/Whatshapp/SMS' },
  { id: 1, name: 'Surat' },
  { id: 2, name: 'Tatap Muka' },
  { id: 3, name: 'Lainnya' },
] as const;

export const FIELD_LIMITS = {
  name: 50,
  address: 50,
  email: 100,
  phoneMin: 3,
  phoneMax: 50,
  longText: 500,
  answer: 255,
  singleLineInput: 50,
  passwordMin: 8,
} as const;

export const SNACKBAR = { max: 5, durationMs: 3000 } as const;
export const CHART_LABEL_MAX = 25;
