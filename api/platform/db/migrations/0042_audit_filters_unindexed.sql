-- Every index on the audit log is one more B-tree page each audited action writes at its commit:
-- the person and kind indexes made an accept cost about 7 % more (docs/budgets.md, "The team";
-- decision 058). The owner's filters by person or kind walk the company's rows, newest first, on
-- the company index instead.
DROP INDEX IF EXISTS `audit_events_person`;--> statement-breakpoint
DROP INDEX IF EXISTS `audit_events_kind`;
