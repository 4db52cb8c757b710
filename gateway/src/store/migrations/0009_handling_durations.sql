-- Each report's handling durations, kept (docs/adr/0069-handling-durations-kept-per-report.md):
-- Statistik aggregates these rows instead of deriving every report's clock on each request.
-- Derived only: from the index row (its incarnation and filing time), the kept clock facts of that
-- incarnation and its first two handler messages, by clocks/durations.ts. No text, no identity.
CREATE TABLE case_handling (
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  -- The index row's incarnation the durations were derived for; another one's are not used.
  case_binding text NOT NULL,
  -- Clock facts of this incarnation are kept (else a report past Baru has no clock yet).
  kept boolean NOT NULL,
  -- The kept deadlines as WIB days (from the kept filing day); null when none were kept: the
  -- company's own deadlines (or the group default) apply when counted.
  ack_due date,
  ans_due date,
  -- Days from filing to the acknowledgement and to the answer, to a tenth, and the WIB days they fell on.
  ack_days_taken double precision,
  ack_on date,
  ans_days_taken double precision,
  ans_on date,
  PRIMARY KEY (company_id, case_id)
);
--> statement-breakpoint
-- The reports whose durations must be derived again: written by the triggers below in the writer's
-- own transaction (an append, never a wait), taken in id order by one refresh at a time.
CREATE TABLE case_handling_stale (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL,
  case_id integer NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION case_handling_stale_index() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM old_rows;
  ELSE
    -- Only another incarnation or filing time changes the durations (a status is read when counted).
    INSERT INTO case_handling_stale (company_id, case_id)
    SELECT n.company_id, n.case_id FROM new_rows n JOIN old_rows o USING (company_id, case_id)
     WHERE n.case_binding IS DISTINCT FROM o.case_binding OR n.filed_at IS DISTINCT FROM o.filed_at;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION case_handling_stale_clock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM old_rows;
  ELSE
    -- The watcher writes a case's facts again on every sweep: only a real change counts.
    INSERT INTO case_handling_stale (company_id, case_id)
    SELECT n.company_id, n.case_id FROM new_rows n JOIN old_rows o USING (company_id, case_id)
     WHERE (n.case_binding, n.filed_at, n.ack_days, n.feedback_months, n.log_acknowledged_at, n.log_answered_at)
           IS DISTINCT FROM
           (o.case_binding, o.filed_at, o.ack_days, o.feedback_months, o.log_acknowledged_at, o.log_answered_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION case_handling_stale_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_handling_stale (company_id, case_id)
    SELECT company_id, case_id FROM new_rows WHERE author_kind = 'handler';
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO case_handling_stale (company_id, case_id)
    SELECT company_id, case_id FROM old_rows WHERE author_kind = 'handler';
  ELSE
    INSERT INTO case_handling_stale (company_id, case_id)
    SELECT n.company_id, n.case_id FROM new_rows n JOIN old_rows o USING (id)
     WHERE (n.author_kind = 'handler' OR o.author_kind = 'handler')
       AND (n.company_id, n.case_id, n.case_binding, n.author_kind, n.created_at)
           IS DISTINCT FROM (o.company_id, o.case_id, o.case_binding, o.author_kind, o.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER case_handling_index_insert AFTER INSERT ON case_index
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_index();
--> statement-breakpoint
CREATE TRIGGER case_handling_index_update AFTER UPDATE ON case_index
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_index();
--> statement-breakpoint
CREATE TRIGGER case_handling_index_delete AFTER DELETE ON case_index
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_index();
--> statement-breakpoint
CREATE TRIGGER case_handling_clock_insert AFTER INSERT ON case_clock
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_clock();
--> statement-breakpoint
CREATE TRIGGER case_handling_clock_update AFTER UPDATE ON case_clock
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_clock();
--> statement-breakpoint
CREATE TRIGGER case_handling_clock_delete AFTER DELETE ON case_clock
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_clock();
--> statement-breakpoint
CREATE TRIGGER case_handling_message_insert AFTER INSERT ON case_message
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_message();
--> statement-breakpoint
CREATE TRIGGER case_handling_message_update AFTER UPDATE ON case_message
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_message();
--> statement-breakpoint
CREATE TRIGGER case_handling_message_delete AFTER DELETE ON case_message
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_handling_stale_message();
--> statement-breakpoint
-- Every report already indexed is derived on the first refresh.
INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM case_index;
