-- Retention of personal data (docs/product/retention.md, docs/adr/0063-retention-scan-and-disposal-register.md).
-- A company's own retention period (absent: the group default RETENTION_MONTHS).
CREATE TABLE retention_period (
  company_id integer PRIMARY KEY,
  months smallint NOT NULL CHECK (months BETWEEN 1 AND 120),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by_user_id integer
);
--> statement-breakpoint
-- When the case reached its current final status (WIB wall time, as filed_at): from the legacy's log,
-- else when the gateway first saw it final. Null while the case is open or not yet looked up; the
-- watcher clears it whenever the status moves.
ALTER TABLE case_index ADD COLUMN closed_at text;
--> statement-breakpoint
-- The disposal register: one row per case incarnation whose retention period ended. Facts only: no
-- complaint number, no reporter data; the officer opens the case in the legacy by company and case id.
CREATE TABLE case_disposal (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  case_binding text NOT NULL,
  status_id integer,
  closed_at text NOT NULL,
  due_date text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now(),
  store_purged_at timestamptz,
  destroyed_at timestamptz,
  destroyed_by_user_id integer,
  destroyed_by_name text,
  note text
);
--> statement-breakpoint
-- One entry per incarnation, whichever replica's scan gets there first.
CREATE UNIQUE INDEX case_disposal_case_idx ON case_disposal (company_id, case_id, case_binding);
--> statement-breakpoint
CREATE INDEX case_disposal_waiting_idx ON case_disposal (due_date) WHERE destroyed_at IS NULL;
--> statement-breakpoint
-- The retention scan's lease: one scan at a time across replicas (the nightly job and "Periksa sekarang").
CREATE TABLE retention_scan (
  id smallint PRIMARY KEY,
  holder text,
  held_until timestamptz,
  last_run_at timestamptz
);
--> statement-breakpoint
INSERT INTO retention_scan (id) VALUES (1);
