ALTER TABLE `quotes` ADD `whatsapp_tapped_at` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `phone_tapped_at` text;--> statement-breakpoint
CREATE TABLE `known_sign_in_addresses` (
	`user_id` integer NOT NULL,
	`address_hash` text NOT NULL,
	`last_signed_in_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `address_hash`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
