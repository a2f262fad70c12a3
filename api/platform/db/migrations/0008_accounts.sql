-- Accounts an operator can trust (docs/product.md, Accounts): verified addresses, one-time links
-- for verification and password reset, and one free trial per account.
ALTER TABLE `users` ADD `email_verified_at` text;
--> statement-breakpoint
ALTER TABLE `users` ADD `trial_used` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Every account that has ever had a subscription has had its trial.
UPDATE `users` SET `trial_used` = 1 WHERE `trial_ends_at` IS NOT NULL OR `stripe_subscription_id` IS NOT NULL OR `subscription_status` <> 'inactive';
--> statement-breakpoint
-- An address belongs to whoever verifies it: unverified sign-ups may share it for a while, a
-- verified one holds it alone.
DROP INDEX `users_email_unique`;
--> statement-breakpoint
CREATE INDEX `users_email` ON `users` (lower("email"));
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_verified` ON `users` (lower("email")) WHERE "email_verified_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `account_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` integer NOT NULL,
	`email` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_tokens_hash` ON `account_tokens` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `account_tokens_user` ON `account_tokens` (`user_id`);
--> statement-breakpoint
CREATE TABLE `verified_addresses` (
	`company_id` integer NOT NULL,
	`email` text NOT NULL,
	`verified_at` text NOT NULL,
	PRIMARY KEY(`company_id`, `email`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `user_id` integer REFERENCES users(id);
