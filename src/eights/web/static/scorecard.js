// The score sheet's page (issue 22): its code is in scorecard/.

import "./scorecard/sheet.js";
