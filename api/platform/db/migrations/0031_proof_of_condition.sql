CREATE TABLE `job_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`public_id` text NOT NULL,
	`client_id` text NOT NULL,
	`stage` text NOT NULL,
	`kind` text NOT NULL,
	`slot` text,
	`note` text,
	`signer_name` text,
	`taken_at` text NOT NULL,
	`latitude` real,
	`longitude` real,
	`taken_by` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`store_key` text NOT NULL,
	`shown_key` text,
	`thumb_key` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_files_public` ON `job_files` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `job_files_client` ON `job_files` (`booking_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `job_files_booking` ON `job_files` (`booking_id`,`taken_at`);--> statement-breakpoint
CREATE TABLE `blob_deletions` (
	`key` text PRIMARY KEY NOT NULL,
	`queued_at` text NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `job_files_blobs_deleted` AFTER DELETE ON `job_files` BEGIN
	INSERT OR IGNORE INTO `blob_deletions` (`key`, `queued_at`) VALUES (old.`store_key`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
	INSERT OR IGNORE INTO `blob_deletions` (`key`, `queued_at`) SELECT old.`shown_key`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE old.`shown_key` IS NOT NULL;
	INSERT OR IGNORE INTO `blob_deletions` (`key`, `queued_at`) SELECT old.`thumb_key`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE old.`thumb_key` IS NOT NULL;
END;--> statement-breakpoint
CREATE TABLE `job_conditions` (
	`booking_id` integer NOT NULL,
	`stage` text NOT NULL,
	`company_id` integer NOT NULL,
	`checklist` text NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`booking_id`, `stage`),
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `proof_settings` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`photos_before_loaded` integer DEFAULT false NOT NULL,
	`photos_before_completed` integer DEFAULT false NOT NULL,
	`checklist` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
