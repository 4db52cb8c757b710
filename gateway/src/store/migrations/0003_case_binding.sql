-- Every row about a legacy case is bound to one incarnation of that case: a keyed hash of the
-- company id, case id, complaint number and filing time (case-binding.ts). A legacy id issued twice
-- (a restored backup, a reset legacy) then never shows one reporter's rows to another. Rows written
-- before this migration hold NULL and are bound on first read by the rules in case-binding.ts.
ALTER TABLE case_message ADD COLUMN case_binding text;
--> statement-breakpoint
ALTER TABLE identity_access ADD COLUMN case_binding text;
--> statement-breakpoint
ALTER TABLE case_conversation ADD COLUMN case_binding text;
--> statement-breakpoint
ALTER TABLE case_clock ADD COLUMN case_binding text;
--> statement-breakpoint
-- Idempotency keys are per incarnation (their HMAC covers the binding): the index need not change.
-- The store's own secrets (the binding key), each sealed with the store key ring like a message.
CREATE TABLE store_secret (
  name text PRIMARY KEY,
  key_id text NOT NULL,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
