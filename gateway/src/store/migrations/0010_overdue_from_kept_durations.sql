-- The overdue filter and tile decided from the kept durations (docs/adr/0071-overdue-from-kept-durations.md):
-- each derived report also says at which status its clock facts were read, so a request tells at once
-- whether they still hold for the status the index has, and the reports not answered yet are found
-- through one small index instead of a join over every report of the company.
ALTER TABLE case_handling ADD COLUMN status_id_seen integer;
--> statement-breakpoint
-- Filled here from the kept facts (the derivation writes it from now on): no report waits for a refresh.
-- The kept facts of the derived incarnation, matched as the derivation matches them.
UPDATE case_handling h SET status_id_seen = k.status_id_seen
  FROM case_clock k, case_index i
 WHERE k.company_id = h.company_id AND k.case_id = h.case_id AND h.kept
   AND i.company_id = h.company_id AND i.case_id = h.case_id AND i.case_binding = h.case_binding
   AND (k.case_binding = i.case_binding OR (k.case_binding IS NULL AND k.filed_at = i.filed_at));
--> statement-breakpoint
-- Everything the overdue query reads of a report not answered yet, so it reads only this index.
CREATE INDEX case_handling_unanswered_idx ON case_handling (company_id, case_id)
  INCLUDE (case_binding, kept, status_id_seen, ack_due, ans_due, ack_on) WHERE ans_on IS NULL;
--> statement-breakpoint
-- A clock row read again at another status changes what the overdue query may decide alone.
CREATE OR REPLACE FUNCTION case_handling_stale_clock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO case_handling_stale (company_id, case_id) SELECT company_id, case_id FROM old_rows;
  ELSE
    -- The watcher writes a case's facts again on every sweep: only a real change counts.
    INSERT INTO case_handling_stale (company_id, case_id)
    SELECT n.company_id, n.case_id FROM new_rows n JOIN old_rows o USING (company_id, case_id)
     WHERE (n.case_binding, n.filed_at, n.ack_days, n.feedback_months, n.log_acknowledged_at, n.log_answered_at,
            n.status_id_seen)
           IS DISTINCT FROM
           (o.case_binding, o.filed_at, o.ack_days, o.feedback_months, o.log_acknowledged_at, o.log_answered_at,
            o.status_id_seen);
  END IF;
  RETURN NULL;
END $$;
