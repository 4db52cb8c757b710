-- Second factors of staff accounts (second-factor/, docs/adr/0062-second-factor.md). Every row names
-- the legacy user id AND username: a legacy id reissued to another account never inherits a factor.
-- The TOTP secret lives only sealed (key ring) with the id of its key; recovery codes only as keyed
-- HMACs; a passkey's public key is not secret and is kept as it is.
CREATE TABLE second_factor_totp (
  user_id integer PRIMARY KEY,
  username text NOT NULL,
  key_id text NOT NULL,
  sealed text NOT NULL,
  -- Null while the enrolment waits for its first code.
  confirmed_at timestamptz,
  -- The highest time step accepted: a code of this step or an earlier one is refused (replay).
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE second_factor_passkey (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL,
  username text NOT NULL,
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]'::jsonb,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX second_factor_passkey_credential_idx ON second_factor_passkey (credential_id);
--> statement-breakpoint
CREATE INDEX second_factor_passkey_user_idx ON second_factor_passkey (user_id);
--> statement-breakpoint
CREATE TABLE second_factor_recovery (
  user_id integer NOT NULL,
  username text NOT NULL,
  code_hmac text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, code_hmac)
);
