CREATE TABLE `xero_connections` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`tenant_name` text NOT NULL,
	`refresh_token_sealed` text,
	`bank_account_code` text NOT NULL,
	`sales_account_code` text DEFAULT '200' NOT NULL,
	`card_contact_id` text,
	`connected_at` text NOT NULL,
	`connected_by` integer,
	`last_sync_at` text,
	`last_error` text,
	`last_error_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `xero_auth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`bank_account_code` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `xero_auth_states_company` ON `xero_auth_states` (`company_id`);--> statement-breakpoint
CREATE TABLE `xero_card_jobs` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`xero_invoice_id` text,
	`xero_payment_id` text,
	`xero_balance_payment_id` text,
	`refunded_pence` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `xero_card_refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`amount_pence` integer NOT NULL,
	`refunded_on` text NOT NULL,
	`xero_credit_note_id` text,
	`xero_refund_id` text,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `xero_card_refunds_booking` ON `xero_card_refunds` (`booking_id`);
