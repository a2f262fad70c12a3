ALTER TABLE `bookings` ADD `customer_email` text;--> statement-breakpoint
CREATE TABLE `review_email_opt_outs` (
	`company_id` integer NOT NULL,
	`email` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`company_id`, `email`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
