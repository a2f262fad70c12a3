-- Each person of a company has a role (owner, dispatcher, driver); every account so far is its
-- company's owner, as the one who signed up.
ALTER TABLE `users` ADD `role` text DEFAULT 'owner' NOT NULL;
