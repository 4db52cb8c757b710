CREATE TABLE handling_deadline (
  company_id integer PRIMARY KEY,
  ack_days smallint NOT NULL CHECK (ack_days BETWEEN 1 AND 30),
  feedback_months smallint NOT NULL CHECK (feedback_months BETWEEN 1 AND 12),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by_user_id integer
);
--> statement-breakpoint
CREATE TABLE case_clock (
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  filed_at text NOT NULL,
  ack_days smallint NOT NULL,
  feedback_months smallint NOT NULL,
  status_id_seen integer,
  log_acknowledged_at text,
  log_answered_at text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, case_id)
);
