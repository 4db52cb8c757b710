-- Consecutive refused codes of an account's second-factor step (docs/adr/0074-second-factor-failure-cap.md):
-- an authenticator code or a recovery code typed wrong, counted across sessions and sign-ins, set back
-- to zero by any factor accepted. At SECOND_FACTOR_MAX_FAILURES the account's authenticator codes are no
-- longer accepted until a recovery code or a passkey is. Named by the legacy user id AND username, as
-- the factors are.
CREATE TABLE second_factor_failure (
  user_id integer PRIMARY KEY,
  username text NOT NULL,
  failures integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
