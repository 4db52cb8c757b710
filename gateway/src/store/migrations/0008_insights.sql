-- Peta Laporan and Statistik (docs/product/insights.md, docs/adr/0065-insights-from-the-case-index.md).
-- The reporter's province and city as legacy region ids (null: none named, or an anonymous report,
-- whose location is never kept), and whether the case's detail was read (channel, anonymous flag,
-- location): the watcher reads the details of new cases and, a few per poll, of rows never read.
ALTER TABLE case_index ADD COLUMN province_id integer;
--> statement-breakpoint
ALTER TABLE case_index ADD COLUMN city_id integer;
--> statement-breakpoint
ALTER TABLE case_index ADD COLUMN detail_read boolean NOT NULL DEFAULT false;
--> statement-breakpoint
-- The figures select a company's cases by filing day; the backfill its rows never read, newest first.
CREATE INDEX case_index_filed_idx ON case_index (company_id, filed_at);
--> statement-breakpoint
CREATE INDEX case_index_unread_idx ON case_index (company_id, filed_at) WHERE NOT detail_read;
--> statement-breakpoint
-- The reporter came back to the case after filing (a successful tracking proof or a message of
-- theirs): one row per incarnation, when it first happened. Nothing else: no IP, no user agent, no
-- count of visits. Deleted with the case's other rows by the retention purge.
CREATE TABLE case_return (
  company_id integer NOT NULL,
  case_id integer NOT NULL,
  case_binding text NOT NULL,
  first_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, case_id, case_binding)
);
