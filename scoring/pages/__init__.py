"""The pages: views, their forms, and what each page shows."""
