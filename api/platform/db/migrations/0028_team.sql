-- The team (docs/product.md, The team): when each person last signed in, the owner's refund limit
-- for dispatchers, invitations, and the append-only audit log.
ALTER TABLE `users` ADD `last_sign_in_at` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `dispatcher_refund_limit_pence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE `team_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`invited_by` integer,
	`token_hash` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`accepted_at` text,
	`revoked_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);--> statement-breakpoint
CREATE UNIQUE INDEX `team_invitations_token` ON `team_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `team_invitations_company` ON `team_invitations` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`person_id` integer,
	`person_name` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text,
	`old_value` text,
	`new_value` text,
	`request_id` text,
	`at` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `audit_events_company` ON `audit_events` (`company_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_person` ON `audit_events` (`company_id`,`person_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_kind` ON `audit_events` (`company_id`,`kind`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_at` ON `audit_events` (`at`);--> statement-breakpoint
-- Append-only: no row is ever changed, and none younger than 24 months is deleted (the retention
-- job deletes only older ones, so it needs no way around these).
CREATE TRIGGER `audit_events_no_update` BEFORE UPDATE ON `audit_events`
BEGIN
	SELECT RAISE(ABORT, 'audit_events is append-only: rows are never changed');
END;--> statement-breakpoint
CREATE TRIGGER `audit_events_no_delete` BEFORE DELETE ON `audit_events`
WHEN OLD.`at` > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-24 months')
BEGIN
	SELECT RAISE(ABORT, 'audit_events is append-only: rows are kept 24 months');
END;
