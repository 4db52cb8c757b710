-- The case index: facts (never identities) of every legacy case, kept in step with the legacy by the
-- watcher (case-index/), each row bound to one incarnation of its case (case-binding.ts).
CREATE TABLE case_index (
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  case_binding text NOT NULL,
  line_id integer,
  category_id integer,
  status_id integer,
  channel_id integer,
  anonymous boolean,
  filed_at text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, case_id)
);
--> statement-breakpoint
CREATE INDEX case_index_status_idx ON case_index (company_id, status_id);
--> statement-breakpoint
-- Where the watcher is in each company's case table.
CREATE TABLE case_watch (
  company_id integer PRIMARY KEY,
  seeded boolean NOT NULL DEFAULT false,
  sweep_start integer NOT NULL DEFAULT 0,
  swept_at timestamptz,
  polled_at timestamptz
);
--> statement-breakpoint
-- Things that happened to cases, in the order they were learnt: by the watcher (filed, routed, status)
-- or by the gateway itself (a reporter's message or evidence). The notifier reads it in id order.
CREATE TABLE case_event (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  case_binding text NOT NULL,
  line_id integer,
  facts jsonb NOT NULL DEFAULT '{}'::jsonb,
  occurred_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- One notice to one user (a legacy user id): the bell's rows. `dedupe` makes every producer
-- idempotent: the same event for the same user is one notice however often it is produced.
CREATE TABLE notice (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  user_id integer NOT NULL,
  kind text NOT NULL,
  company_id integer,
  -- The company's name when the notice was made: the bell and the mails name it without a legacy call.
  company_name text,
  case_id integer,
  case_binding text,
  dedupe text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  mail text NOT NULL DEFAULT 'off' CHECK (mail IN ('off', 'immediate', 'digest', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX notice_dedupe_idx ON notice (user_id, dedupe);
--> statement-breakpoint
CREATE INDEX notice_user_idx ON notice (user_id, id DESC);
--> statement-breakpoint
CREATE INDEX notice_digest_idx ON notice (mail, created_at) WHERE mail = 'digest';
--> statement-breakpoint
-- A user's choice of mail per kind of notice (absent: the kind's default).
CREATE TABLE notice_preference (
  user_id integer NOT NULL,
  kind text NOT NULL,
  mail text NOT NULL CHECK (mail IN ('immediate', 'digest', 'off')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind)
);
--> statement-breakpoint
-- Where each staff user's notices are mailed: the address from the legacy's staff records (refreshed
-- whenever the notifier reads them, and at each sign-in), sealed like a message, so a mail job needs
-- neither the legacy nor an address in its data.
CREATE TABLE notice_recipient (
  user_id integer PRIMARY KEY,
  key_id text NOT NULL,
  sealed_email text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- How far each reader of case_event has come.
CREATE TABLE event_cursor (
  name text PRIMARY KEY,
  last_id bigint NOT NULL DEFAULT 0
);
