-- When each user was last mailed a notice of a kind and company (docs/adr/0077-handler-mail-window.md):
-- a notice coming within NOTICE_MAIL_WINDOW_SECONDS of that mail waits, and the ones that wait together
-- go as one mail with their count when the window ends. `company_id` 0: a notice of no company.
CREATE TABLE notice_mail_window (
  user_id integer NOT NULL,
  kind text NOT NULL,
  company_id integer NOT NULL,
  last_mail_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind, company_id)
);
--> statement-breakpoint
-- Notices waiting for an immediate mail now wait up to a window: the mail job and its sweep find them
-- without reading every notice ever made.
CREATE INDEX notice_immediate_idx ON notice (user_id, created_at) WHERE mail = 'immediate';
