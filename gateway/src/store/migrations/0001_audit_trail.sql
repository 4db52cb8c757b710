CREATE TABLE audit_chain_head (
  id smallint PRIMARY KEY CHECK (id = 1),
  seq bigint NOT NULL,
  hash text NOT NULL
);
--> statement-breakpoint
INSERT INTO audit_chain_head (id, seq, hash)
  VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
--> statement-breakpoint
CREATE TABLE audit_record (
  seq bigint PRIMARY KEY,
  at timestamptz NOT NULL,
  actor_user_id integer,
  actor_user_type smallint,
  actor_company_id integer,
  actor_partner_id integer,
  event text NOT NULL,
  body text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
--> statement-breakpoint
CREATE INDEX audit_record_at_idx ON audit_record (at);
--> statement-breakpoint
CREATE INDEX audit_record_company_idx ON audit_record (actor_company_id, at);
