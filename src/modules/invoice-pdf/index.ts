// The invoice-pdf module's door: what other modules, the front doors and the composition root may use of it.

