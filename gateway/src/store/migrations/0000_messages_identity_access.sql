CREATE TABLE case_conversation (
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  handler_seen_id bigint NOT NULL DEFAULT 0,
  reporter_seen_id bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, case_id)
);
--> statement-breakpoint
CREATE TABLE case_message (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  author_kind text NOT NULL CHECK (author_kind IN ('handler', 'reporter')),
  author_user_id integer,
  author_user_type smallint,
  key_id text NOT NULL,
  sealed text NOT NULL,
  idempotency_key text,
  fingerprint text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((author_kind = 'reporter') = (author_user_id IS NULL AND author_user_type IS NULL))
);
--> statement-breakpoint
CREATE INDEX case_message_case_idx ON case_message (company_id, case_id, id);
--> statement-breakpoint
CREATE UNIQUE INDEX case_message_idempotency_idx
  ON case_message (company_id, case_id, author_kind, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
--> statement-breakpoint
CREATE TABLE identity_access (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  accessed_at timestamptz NOT NULL DEFAULT now(),
  reader_user_type smallint NOT NULL,
  reader_role smallint,
  kind text NOT NULL CHECK (kind IN ('case-read', 'contact-reveal'))
);
--> statement-breakpoint
CREATE INDEX identity_access_case_idx ON identity_access (company_id, case_id, accessed_at);
