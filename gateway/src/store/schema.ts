/**
 * Tables of the gateway's own store (typed for drizzle; the SQL itself is in migrations/). Rows
 * reference a legacy case by company id and case id plus `case_binding`, which ties them to one
 * incarnation of that case (case-binding.ts): nothing here names the reporter, and the text of a
 * message lives only sealed (keyring.ts) with the id of its key.
 */
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  sql,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from './drizzle.ts';

export type AuthorKind = 'handler' | 'reporter';

/** Per case: the last message each side has seen (drives the unread marks). */
export const caseConversation = pgTable(
  'case_conversation',
  {
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    /** The case incarnation (case-binding.ts); null only on rows from before bindings. */
    caseBinding: text('case_binding'),
    /** Highest message id a handler has read (reporter messages above it are unread). */
    handlerSeenId: bigint('handler_seen_id', { mode: 'number' }).notNull().default(0),
    /** Highest message id the reporter has seen (handler replies above it are new to them). */
    reporterSeenId: bigint('reporter_seen_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.caseId] })],
);

export const caseMessage = pgTable(
  'case_message',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    /** The case incarnation (case-binding.ts); null only on rows from before bindings. */
    caseBinding: text('case_binding'),
    authorKind: text('author_kind').$type<AuthorKind>().notNull(),
    /** The handler's legacy user id and type; null for the reporter (never identified here). */
    authorUserId: integer('author_user_id'),
    authorUserType: smallint('author_user_type'),
    /** Id of the key that sealed `sealed` (STORE_ENCRYPTION_KEYS). */
    keyId: text('key_id').notNull(),
    /** AES-256-GCM sealed JSON: the text, file references and the handler's display name. */
    sealed: text('sealed').notNull(),
    /** HMAC of the Idempotency-Key and of the content: a retried post is stored once. */
    idempotencyKey: text('idempotency_key'),
    fingerprint: text('fingerprint'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('case_message_case_idx').on(t.companyId, t.caseId, t.id),
    uniqueIndex('case_message_idempotency_idx')
      .on(t.companyId, t.caseId, t.authorKind, t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
  ],
);

/** Each time staff opened a case's identity fields: when, and the reader's user type and role. */
export const identityAccess = pgTable(
  'identity_access',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    /** The case incarnation (case-binding.ts); null only on rows from before bindings. */
    caseBinding: text('case_binding'),
    accessedAt: timestamp('accessed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    readerUserType: smallint('reader_user_type').notNull(),
    readerRole: smallint('reader_role'),
    /** `case-read` (detail with identity fields) or `contact-reveal` (later: unmasked contacts). */
    kind: text('kind').$type<'case-read' | 'contact-reveal'>().notNull(),
  },
  (t) => [index('identity_access_case_idx').on(t.companyId, t.caseId, t.accessedAt)],
);

/**
 * The audit trail's chain head: one row (id 1) holding the last record's sequence number and hash.
 * Every append locks it (`SELECT … FOR UPDATE`), so parallel requests and replicas append one after
 * another and the chain never forks.
 */
export const auditChainHead = pgTable('audit_chain_head', {
  id: smallint('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});

/**
 * One staff action: `body` is the canonical JSON the hash covers (the columns beside it repeat some of
 * its fields for filtering and are checked against it). Never report text, never reporter identity.
 */
export const auditRecord = pgTable(
  'audit_record',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    actorUserId: integer('actor_user_id'),
    actorUserType: smallint('actor_user_type'),
    actorCompanyId: integer('actor_company_id'),
    actorPartnerId: integer('actor_partner_id'),
    event: text('event').notNull(),
    body: text('body').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_record_at_idx').on(t.at),
    index('audit_record_company_idx').on(t.actorCompanyId, t.at),
  ],
);

/** A company's own handling deadlines (absent: the group default of the configuration). */
export const handlingDeadline = pgTable('handling_deadline', {
  companyId: integer('company_id').primaryKey(),
  ackDays: smallint('ack_days').notNull(),
  feedbackMonths: smallint('feedback_months').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedByUserId: integer('updated_by_user_id'),
});

/**
 * What the handling clock of a case is derived from, kept so a case list need not read every case's
 * activity log again: the filing time, the deadlines in force when the gateway first saw the case
 * (a later change of the setting does not move a promise already made), and the acknowledgement and
 * answer found in the legacy's log as of status `statusIdSeen` (re-read when the status moves).
 * Handler messages are not copied here: they are read from case_message each time.
 */
export const caseClock = pgTable(
  'case_clock',
  {
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    /** The case incarnation (case-binding.ts); null only on rows from before bindings. */
    caseBinding: text('case_binding'),
    filedAt: text('filed_at').notNull(),
    ackDays: smallint('ack_days').notNull(),
    feedbackMonths: smallint('feedback_months').notNull(),
    statusIdSeen: integer('status_id_seen'),
    logAcknowledgedAt: text('log_acknowledged_at'),
    logAnsweredAt: text('log_answered_at'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.caseId] })],
);

/** The store's own secrets (the case binding key), sealed with the store key ring like a message. */
export const storeSecret = pgTable('store_secret', {
  name: text('name').primaryKey(),
  keyId: text('key_id').notNull(),
  sealed: text('sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The case index (case-index/): what the legacy's case tables say of every case, kept in step by the
 * watcher. Facts only: ids, line, category, status, channel, the anonymous flag and the filing time;
 * never a name, a contact or the complaint number.
 */
export const caseIndex = pgTable(
  'case_index',
  {
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    caseBinding: text('case_binding').notNull(),
    lineId: integer('line_id'),
    categoryId: integer('category_id'),
    statusId: integer('status_id'),
    channelId: integer('channel_id'),
    anonymous: boolean('anonymous'),
    /** The legacy's filing time as WIB wall time (handling-clock.ts normaliseWallTime). */
    filedAt: text('filed_at').notNull(),
    /**
     * When the case reached its current final status (WIB wall time): from the legacy's log, else when
     * the gateway first saw it final. Null while open or not looked up yet (retention/).
     */
    closedAt: text('closed_at'),
    /** The reporter's province and city (legacy region ids); null for none named and for anonymous reports. */
    provinceId: integer('province_id'),
    cityId: integer('city_id'),
    /** The case's detail was read (channel, anonymous flag, location); the watcher backfills rows never read. */
    detailRead: boolean('detail_read').notNull().default(false),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.caseId] }),
    index('case_index_status_idx').on(t.companyId, t.statusId),
    index('case_index_filed_idx').on(t.companyId, t.filedAt),
    index('case_index_unread_idx').on(t.companyId, t.filedAt).where(sql`not ${t.detailRead}`),
  ],
);

/** Where the watcher is in each company's case table. */
export const caseWatch = pgTable('case_watch', {
  companyId: integer('company_id').primaryKey(),
  /** The first full sweep is done: cases first seen after it are news (before it, history). */
  seeded: boolean('seeded').notNull().default(false),
  /** Offset of the next sweep page in the table ordered oldest first. */
  sweepStart: integer('sweep_start').notNull().default(0),
  sweptAt: timestamp('swept_at', { withTimezone: true, mode: 'date' }),
  polledAt: timestamp('polled_at', { withTimezone: true, mode: 'date' }),
});

export type CaseEventKind =
  | 'case-filed'
  | 'case-routed'
  | 'status-changed'
  | 'reporter-message'
  | 'reporter-evidence';

/** Things that happened to cases, in the order the gateway learnt them; read by the notifier. */
export const caseEvent = pgTable('case_event', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind').$type<CaseEventKind>().notNull(),
  companyId: integer('company_id').notNull(),
  caseId: integer('case_id').notNull(),
  caseBinding: text('case_binding').notNull(),
  /** The case's line when the event happened (who may handle it). */
  lineId: integer('line_id'),
  /** Facts only (ids, statuses), never text or identity. */
  facts: jsonb('facts').$type<Record<string, number | string | boolean | null>>().notNull().default({}),
  occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type NoticeMail = 'off' | 'immediate' | 'digest' | 'sent' | 'failed';

/** One notice to one user (legacy user id): the bell's rows; `dedupe` makes producers idempotent. */
export const notice = pgTable(
  'notice',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').notNull(),
    kind: text('kind').notNull(),
    companyId: integer('company_id'),
    /** The company's name when the notice was made (the bell and mails name it without a legacy call). */
    companyName: text('company_name'),
    caseId: integer('case_id'),
    caseBinding: text('case_binding'),
    dedupe: text('dedupe').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    mail: text('mail').$type<NoticeMail>().notNull().default('off'),
  },
  (t) => [
    uniqueIndex('notice_dedupe_idx').on(t.userId, t.dedupe),
    index('notice_user_idx').on(t.userId, t.id),
  ],
);

/** A user's mail choice per kind of notice (absent: the kind's default, shared/src/notices.ts). */
export const noticePreference = pgTable(
  'notice_preference',
  {
    userId: integer('user_id').notNull(),
    kind: text('kind').notNull(),
    mail: text('mail').$type<'immediate' | 'digest' | 'off'>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** Where a staff user's notices are mailed: the address sealed (keyring.ts), refreshed from the legacy. */
export const noticeRecipient = pgTable('notice_recipient', {
  userId: integer('user_id').primaryKey(),
  keyId: text('key_id').notNull(),
  sealedEmail: text('sealed_email').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * When a user was last mailed a notice of a kind and company (`companyId` 0: of no company): the
 * next immediate mail of the same waits for the window's end (notifications/mail-jobs.ts).
 */
export const noticeMailWindow = pgTable(
  'notice_mail_window',
  {
    userId: integer('user_id').notNull(),
    kind: text('kind').notNull(),
    companyId: integer('company_id').notNull(),
    lastMailAt: timestamp('last_mail_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.companyId] })],
);

/** How far each reader of case_event has come. */
export const eventCursor = pgTable('event_cursor', {
  name: text('name').primaryKey(),
  lastId: bigint('last_id', { mode: 'number' }).notNull().default(0),
});

export type ReporterSubscriptionState = 'pending' | 'confirmed';
/** Who asked: the tracker (Pantau Laporan) or the signed-in pelapor (its account); the mail's link follows. */
export type ReporterAudience = 'tracker' | 'account';

/**
 * A reporter's e-mail notice of a reply (reporter-notices/): at most one pending and one confirmed
 * address per case, bound to the case's incarnation. The address (and the opt-out token the mails
 * carry) only sealed; link tokens only as hashes; never read by any staff route.
 */
export const reporterSubscription = pgTable(
  'reporter_subscription',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    caseBinding: text('case_binding').notNull(),
    audience: text('audience').$type<ReporterAudience>().notNull(),
    state: text('state').$type<ReporterSubscriptionState>().notNull(),
    /** Id of the key that sealed `sealed` (STORE_ENCRYPTION_KEYS). */
    keyId: text('key_id').notNull(),
    /** AES-256-GCM sealed JSON: the address and the opt-out token. */
    sealed: text('sealed').notNull(),
    /** Keyed HMAC of the address's canonical form: the per-address limit counts it, never the address. */
    addressHmac: text('address_hmac').notNull(),
    /** SHA-256 of the confirmation link's token (set when its mail is made; null once used). */
    confirmHash: text('confirm_hash'),
    confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true, mode: 'date' }),
    /** SHA-256 of the opt-out link's token. */
    optOutHash: text('opt_out_hash').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    /** When the last notice was queued (one per case per hour). */
    lastNoticeAt: timestamp('last_notice_at', { withTimezone: true, mode: 'date' }),
    /** The last handler message seen (a retried post of the same message is no new reply). */
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    /** When the case was first seen in a final status (deleted 30 days later); null while open. */
    finalStatusAt: timestamp('final_status_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reporter_subscription_case_idx').on(t.companyId, t.caseId, t.state),
    uniqueIndex('reporter_subscription_confirm_idx')
      .on(t.confirmHash)
      .where(sql`${t.confirmHash} is not null`),
    uniqueIndex('reporter_subscription_opt_out_idx').on(t.optOutHash),
  ],
);

/** Each confirmation mail asked for, kept a day: the limits per case and per address count these. */
export const reporterConfirmationSend = pgTable(
  'reporter_confirmation_send',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).notNull(),
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    addressHmac: text('address_hmac').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('reporter_confirmation_send_case_idx').on(t.companyId, t.caseId, t.sentAt),
    index('reporter_confirmation_send_address_idx').on(t.addressHmac, t.sentAt),
  ],
);

/**
 * A staff user's authenticator-app secret (second-factor/): sealed, keyed by the legacy user id and
 * username. `lastStep`: the highest TOTP time step accepted, so no code is accepted twice.
 */
export const secondFactorTotp = pgTable('second_factor_totp', {
  userId: integer('user_id').primaryKey(),
  username: text('username').notNull(),
  keyId: text('key_id').notNull(),
  sealed: text('sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A staff user's passkeys (WebAuthn credentials): public keys, signature counters, names. */
export const secondFactorPasskey = pgTable(
  'second_factor_passkey',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    username: text('username').notNull(),
    /** base64url, as WebAuthn names it. */
    credentialId: text('credential_id').notNull(),
    /** base64url of the COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('second_factor_passkey_credential_idx').on(t.credentialId),
    index('second_factor_passkey_user_idx').on(t.userId),
  ],
);

/** Single-use recovery codes, only as keyed HMACs. */
export const secondFactorRecovery = pgTable(
  'second_factor_recovery',
  {
    userId: integer('user_id').notNull(),
    username: text('username').notNull(),
    codeHmac: text('code_hmac').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHmac] })],
);

/**
 * Consecutive refused codes (authenticator or recovery) of an account's second-factor step, across
 * sessions; zero again when a factor is accepted (docs/adr/0074-second-factor-failure-cap.md).
 */
export const secondFactorFailure = pgTable('second_factor_failure', {
  userId: integer('user_id').primaryKey(),
  username: text('username').notNull(),
  failures: integer('failures').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A company's own retention period in months (absent: the group default RETENTION_MONTHS). */
export const retentionPeriod = pgTable('retention_period', {
  companyId: integer('company_id').primaryKey(),
  months: smallint('months').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedByUserId: integer('updated_by_user_id'),
});

/**
 * The disposal register (retention/): a case incarnation whose retention period ended, when the
 * gateway deleted its own personal data of it, and the officer's attestation that the case was
 * destroyed at the legacy. Facts only: no complaint number, no reporter data.
 */
export const caseDisposal = pgTable(
  'case_disposal',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    caseBinding: text('case_binding').notNull(),
    /** The final status the case had when it entered the register. */
    statusId: integer('status_id'),
    /** WIB wall time the case reached its final status. */
    closedAt: text('closed_at').notNull(),
    /** YYYY-MM-DD (WIB): the day its retention period ended. */
    dueDate: text('due_date').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    storePurgedAt: timestamp('store_purged_at', { withTimezone: true, mode: 'date' }),
    destroyedAt: timestamp('destroyed_at', { withTimezone: true, mode: 'date' }),
    destroyedByUserId: integer('destroyed_by_user_id'),
    /** The officer's display name when marking (the register is read without the legacy). */
    destroyedByName: text('destroyed_by_name'),
    note: text('note'),
  },
  (t) => [uniqueIndex('case_disposal_case_idx').on(t.companyId, t.caseId, t.caseBinding)],
);

/** The retention scan's lease (one row, id 1): one scan at a time across replicas. */
export const retentionScan = pgTable('retention_scan', {
  id: smallint('id').primaryKey(),
  holder: text('holder'),
  heldUntil: timestamp('held_until', { withTimezone: true, mode: 'date' }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true, mode: 'date' }),
});

/**
 * The reporter came back after filing (a successful tracking proof or a message of theirs): one row
 * per case incarnation, when it first happened (Statistik's `returned`). No IP, no user agent, no
 * count of visits; the retention purge deletes it with the case's other rows.
 */
export const caseReturn = pgTable(
  'case_return',
  {
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    caseBinding: text('case_binding').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.caseId, t.caseBinding] })],
);

/**
 * Each report's handling durations, derived from its index row, kept clock facts and first two handler
 * messages (clocks/durations.ts); what Statistik counts. Kept in step by triggers (migration 0009) that
 * append the report to `case_handling_stale` whenever one of those facts is written.
 */
export const caseHandling = pgTable(
  'case_handling',
  {
    companyId: integer('company_id').notNull(),
    caseId: integer('case_id').notNull(),
    caseBinding: text('case_binding').notNull(),
    kept: boolean('kept').notNull(),
    /** The status the kept facts were read at (null without them): whether they hold for the index's. */
    statusIdSeen: integer('status_id_seen'),
    ackDue: date('ack_due', { mode: 'string' }),
    ansDue: date('ans_due', { mode: 'string' }),
    ackDaysTaken: doublePrecision('ack_days_taken'),
    ackOn: date('ack_on', { mode: 'string' }),
    ansDaysTaken: doublePrecision('ans_days_taken'),
    ansOn: date('ans_on', { mode: 'string' }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.caseId] }),
    // The reports not answered yet, covering what the overdue query reads of them (its INCLUDE columns
    // are in migration 0010: drizzle's index builder cannot say them).
    index('case_handling_unanswered_idx').on(t.companyId, t.caseId).where(sql`${t.ansOn} is null`),
  ],
);

/** Reports whose durations must be derived again, in the order they were written. */
export const caseHandlingStale = pgTable('case_handling_stale', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  companyId: integer('company_id').notNull(),
  caseId: integer('case_id').notNull(),
});
