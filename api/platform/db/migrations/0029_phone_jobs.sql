ALTER TABLE `bookings` ADD `source` text;--> statement-breakpoint
CREATE TABLE `phone_quotes` (
	`quote_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`taken_by_user_id` integer,
	`taken_by_name` text NOT NULL,
	`adjustment_pence` integer,
	`adjustment_reason` text,
	`link_salt` text NOT NULL,
	`link_token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`taken_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_quotes_link` ON `phone_quotes` (`link_token_hash`);--> statement-breakpoint
CREATE INDEX `phone_quotes_company_created` ON `phone_quotes` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `missed_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`caller` text NOT NULL,
	`call_status` text NOT NULL,
	`texted` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `missed_calls_company_created` ON `missed_calls` (`company_id`,`created_at`);
