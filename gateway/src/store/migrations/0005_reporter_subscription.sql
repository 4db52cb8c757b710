-- A reporter's e-mail notice of a reply (reporter-notices/, docs/adr/0061-reporter-mail-notices.md):
-- at most one pending and one confirmed address per case, each bound to one incarnation of the case.
-- The address lives only sealed (key ring) with the id of its key; the tokens of the mail links only
-- as SHA-256 hashes; `address_hmac` (keyed) counts the confirmation mails per address.
CREATE TABLE reporter_subscription (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  case_binding text NOT NULL,
  audience text NOT NULL CHECK (audience IN ('tracker', 'account')),
  state text NOT NULL CHECK (state IN ('pending', 'confirmed')),
  key_id text NOT NULL,
  sealed text NOT NULL,
  address_hmac text NOT NULL,
  confirm_hash text,
  confirm_expires_at timestamptz,
  opt_out_hash text NOT NULL,
  confirmed_at timestamptz,
  last_notice_at timestamptz,
  last_message_id bigint,
  final_status_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX reporter_subscription_case_idx ON reporter_subscription (company_id, case_id, state);
--> statement-breakpoint
CREATE UNIQUE INDEX reporter_subscription_confirm_idx ON reporter_subscription (confirm_hash)
  WHERE confirm_hash IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX reporter_subscription_opt_out_idx ON reporter_subscription (opt_out_hash);
--> statement-breakpoint
-- Each confirmation mail asked for, kept a day: the limits per case (an hour) and per address (a day).
CREATE TABLE reporter_confirmation_send (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  subscription_id bigint NOT NULL,
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  address_hmac text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX reporter_confirmation_send_case_idx ON reporter_confirmation_send (company_id, case_id, sent_at);
--> statement-breakpoint
CREATE INDEX reporter_confirmation_send_address_idx ON reporter_confirmation_send (address_hmac, sent_at);
