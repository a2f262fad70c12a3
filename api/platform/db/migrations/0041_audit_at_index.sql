-- The audit log's rows are appended in time order, so the nightly retention walks them from the
-- oldest id (api/team/audit-retention.ts) and the index on `at` only cost every audited action
-- one more B-tree insert (docs/budgets.md, "The team"; decision 056).
DROP INDEX IF EXISTS `audit_events_at`;
