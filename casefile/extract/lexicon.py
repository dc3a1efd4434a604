"""Generic word lists the rule layer relies on.

Nothing here names a person, place or agency of any particular story: these are titles, ranks,
organisation suffixes, well-known news outlets and platforms, calendar words and common words that
statistical models mistake for names. All entries are lower case unless stated otherwise.
"""

from __future__ import annotations

# Titles and ranks written before a name, mapped to the role reported for the person.
# Keys are lower case, with the abbreviation's period where it is usually written.
TITLES: dict[str, str] = {
    "sheriff": "Sheriff",
    "undersheriff": "Undersheriff",
    "deputy": "Deputy",
    "sheriff's deputy": "Deputy",
    "police chief": "Police Chief",
    "chief of police": "Police Chief",
    "fire chief": "Fire Chief",
    "chief": "Chief",
    "assistant chief": "Assistant Chief",
    "deputy chief": "Deputy Chief",
    "police commissioner": "Police Commissioner",
    "commissioner": "Commissioner",
    "county commissioner": "County Commissioner",
    "city manager": "City Manager",
    "county manager": "County Manager",
    "county administrator": "County Administrator",
    "administrator": "Administrator",
    "commander": "Commander",
    "cmdr.": "Commander",
    "cmdr": "Commander",
    "county executive": "County Executive",
    "city attorney": "City Attorney",
    "city clerk": "City Clerk",
    "mayor": "Mayor",
    "deputy mayor": "Deputy Mayor",
    "councilman": "Councilman",
    "councilwoman": "Councilwoman",
    "councilmember": "Council Member",
    "council member": "Council Member",
    "alderman": "Alderman",
    "governor": "Governor",
    "gov.": "Governor",
    "lt. gov.": "Lieutenant Governor",
    "lieutenant governor": "Lieutenant Governor",
    "senator": "Senator",
    "sen.": "Senator",
    "state sen.": "State Senator",
    "state senator": "State Senator",
    "representative": "Representative",
    "rep.": "Representative",
    "state rep.": "State Representative",
    "state representative": "State Representative",
    "congressman": "Congressman",
    "congresswoman": "Congresswoman",
    "assemblyman": "Assemblyman",
    "assemblywoman": "Assemblywoman",
    "delegate": "Delegate",
    "speaker": "Speaker",
    "house speaker": "House Speaker",
    "senate president": "Senate President",
    "majority leader": "Majority Leader",
    "minority leader": "Minority Leader",
    "president": "President",
    "vice president": "Vice President",
    "prime minister": "Prime Minister",
    "minister": "Minister",
    "secretary": "Secretary",
    "secretary of state": "Secretary of State",
    "attorney general": "Attorney General",
    "state attorney general": "State Attorney General",
    "solicitor general": "Solicitor General",
    "district attorney": "District Attorney",
    "assistant district attorney": "Assistant District Attorney",
    "state attorney": "State Attorney",
    "state's attorney": "State's Attorney",
    "u.s. attorney": "U.S. Attorney",
    "prosecutor": "Prosecutor",
    "county attorney": "County Attorney",
    "prosecuting attorney": "Prosecuting Attorney",
    "public defender": "Public Defender",
    "judge": "Judge",
    "circuit judge": "Circuit Judge",
    "district judge": "District Judge",
    "superior court judge": "Superior Court Judge",
    "county judge": "County Judge",
    "justice": "Justice",
    "chief justice": "Chief Justice",
    "magistrate": "Magistrate",
    "lieutenant": "Lieutenant",
    "lt.": "Lieutenant",
    "sergeant": "Sergeant",
    "sgt.": "Sergeant",
    "captain": "Captain",
    "capt.": "Captain",
    "major": "Major",
    "maj.": "Major",
    "colonel": "Colonel",
    "col.": "Colonel",
    "lt. col.": "Lieutenant Colonel",
    "general": "General",
    "gen.": "General",
    "corporal": "Corporal",
    "cpl.": "Corporal",
    "officer": "Officer",
    "police officer": "Police Officer",
    "patrolman": "Patrolman",
    "trooper": "Trooper",
    "detective": "Detective",
    "det.": "Detective",
    "inspector": "Inspector",
    "inspector general": "Inspector General",
    "comptroller": "Comptroller",
    "controller": "Controller",
    "treasurer": "Treasurer",
    "auditor": "Auditor",
    "state auditor": "State Auditor",
    "assessor": "Assessor",
    "deputy prosecutor": "Deputy Prosecutor",
    "deputy superintendent": "Deputy Superintendent",
    "assistant superintendent": "Assistant Superintendent",
    "agent": "Agent",
    "special agent": "Special Agent",
    "constable": "Constable",
    "marshal": "Marshal",
    "warden": "Warden",
    "coroner": "Coroner",
    "medical examiner": "Medical Examiner",
    "superintendent": "Superintendent",
    "principal": "Principal",
    "assistant principal": "Assistant Principal",
    "teacher": "Teacher",
    "professor": "Professor",
    "prof.": "Professor",
    "coach": "Coach",
    "dean": "Dean",
    "chancellor": "Chancellor",
    "director": "Director",
    "executive director": "Executive Director",
    "board chair": "Board Chair",
    "board president": "Board President",
    "spokesman": "Spokesman",
    "spokeswoman": "Spokeswoman",
    "spokesperson": "Spokesperson",
    "ceo": "CEO",
    "chairman": "Chairman",
    "chairwoman": "Chairwoman",
    "chair": "Chair",
    "rev.": "Reverend",
    "reverend": "Reverend",
    "father": "Father",
    "rabbi": "Rabbi",
    "imam": "Imam",
    "bishop": "Bishop",
    "pastor": "Pastor",
    "ambassador": "Ambassador",
    "dr.": "Doctor",
}

# Honorifics dropped from names without giving a role.
# Ways one country is written (compared lower case, without dots): one place, not several.
COUNTRY_VARIANTS: tuple[frozenset[str], ...] = (
    frozenset({"us", "usa", "united states", "the united states", "united states of america"}),
    frozenset({"uk", "united kingdom", "the united kingdom", "britain", "great britain"}),
    frozenset({"uae", "united arab emirates", "the united arab emirates"}),
)

HONORIFICS = {"mr.", "mrs.", "ms.", "miss", "mx.", "mr", "mrs", "ms", "sir", "dame"}

# Words that may modify a title ("former Sen.", "acting Police Chief"), kept in the role.
TITLE_MODIFIERS = {"former", "acting", "interim", "then", "retired", "late", "assistant",
                   "state", "u.s.", "federal", "senior", "veteran", "longtime", "incoming",
                   "outgoing"}

# Roles whose holders belong to a school, when the story names exactly one school.
SCHOOL_ROLES = {"teacher", "principal", "assistant principal", "coach", "counselor", "student",
                "dean", "superintendent", "librarian", "custodian"}

# Titles whose place prefix names the agency ("<place> Sheriff X" -> "<place> Sheriff's Office").
SHERIFF_TITLES = {"Sheriff", "Undersheriff", "Deputy"}
POLICE_TITLES = {"Police Chief", "Police Officer", "Officer", "Detective", "Sergeant",
                 "Lieutenant", "Captain", "Corporal", "Patrolman", "Assistant Chief",
                 "Deputy Chief", "Police Commissioner", "Chief"}
FIRE_TITLES = {"Fire Chief"}
CITY_TITLES = {"City Manager", "Mayor", "Deputy Mayor", "City Attorney", "City Clerk",
               "Councilman", "Councilwoman", "Council Member", "Alderman"}
PROSECUTOR_TITLES = {"District Attorney", "State Attorney", "State's Attorney", "Prosecutor",
                     "County Attorney", "Deputy Prosecutor", "Prosecuting Attorney",
                     "Public Defender", "Assistant District Attorney"}

# Political parties in "Sen. Maria Ortiz, D-Ore." style notes.
PARTIES = {"D": "Democratic Party", "R": "Republican Party", "I": "Independent",
           "L": "Libertarian Party", "G": "Green Party"}

# AP-style and postal abbreviations of U.S. states (for "D-Ore." notes and "Salem, Ore.").
STATE_ABBREVIATIONS: dict[str, str] = {
    "Ala.": "Alabama", "Ariz.": "Arizona", "Ark.": "Arkansas", "Calif.": "California",
    "Colo.": "Colorado", "Conn.": "Connecticut", "Del.": "Delaware", "Fla.": "Florida",
    "Ga.": "Georgia", "Ill.": "Illinois", "Ind.": "Indiana", "Kan.": "Kansas", "Ky.": "Kentucky",
    "La.": "Louisiana", "Md.": "Maryland", "Mass.": "Massachusetts", "Mich.": "Michigan",
    "Minn.": "Minnesota", "Miss.": "Mississippi", "Mo.": "Missouri", "Mont.": "Montana",
    "Neb.": "Nebraska", "Nev.": "Nevada", "N.H.": "New Hampshire", "N.J.": "New Jersey",
    "N.M.": "New Mexico", "N.Y.": "New York", "N.C.": "North Carolina", "N.D.": "North Dakota",
    "Okla.": "Oklahoma", "Ore.": "Oregon", "Pa.": "Pennsylvania", "R.I.": "Rhode Island",
    "S.C.": "South Carolina", "S.D.": "South Dakota", "Tenn.": "Tennessee", "Vt.": "Vermont",
    "Va.": "Virginia", "Wash.": "Washington", "W.Va.": "West Virginia", "Wis.": "Wisconsin",
    "Wyo.": "Wyoming",
}
US_STATES = {
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
    "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas",
    "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota",
    "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey",
    "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon",
    "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
    "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming",
}
POSTAL_CODES = {
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ",
    "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
    "VA", "WA", "WV", "WI", "WY", "DC",
}

# Name particles that sit inside a surname ("de la Cruz", "van der Berg").
PARTICLES = {"de", "da", "di", "du", "del", "della", "dos", "das", "do", "la", "le", "van", "los",
             "las", "degli", "vom",
             "von", "der", "den", "ter", "ten", "bin", "ibn", "al", "el", "y", "zu", "af"}

# Organisation suffixes: a capitalised phrase ending in one of these is an organisation.
ORG_SUFFIXES = {
    "department", "office", "agency", "bureau", "commission", "committee", "council",
    "board", "ministry", "court", "jail", "prison", "penitentiary", "hospital", "institute",
    "foundation", "association", "union", "party", "inc", "inc.", "corp", "corp.", "corporation",
    "llc", "ltd", "ltd.", "company", "co.", "group", "church", "authority", "administration",
    "service", "services", "center", "centre", "coalition", "network", "university", "college",
    "academy", "school", "district", "society", "trust", "bank", "fund", "federation", "league",
    "alliance", "caucus", "senate", "assembly", "legislature", "congress", "parliament",
    "police", "patrol", "guard", "army", "navy", "force", "corps", "clinic", "project",
    "initiative", "times", "post", "tribune", "herald", "journal", "gazette", "news", "press",
    "magazine", "radio",
}
# Last words that make a name an organisation's, never a person's ("... Productions").
ORG_LAST_WORDS = {w for w in ORG_SUFFIXES if "." not in w} | {
    "productions", "studios", "studio", "works", "entertainment", "media", "pictures", "records",
    "labs", "laboratories", "systems", "technologies", "motors", "airlines", "airways",
    "communications", "pharmaceuticals", "capital", "partners", "holdings", "industries",
    "enterprises", "solutions", "ventures", "robotics", "house", "ministry", "agency",
    "authority", "institution", "organization", "organisation", "commission", "council",
    "forces", "reports", "review", "magazine", "daily", "weekly", "llp", "plc", "gmbh", "ag",
    "nations",
}
# Words that head an organisation name followed by "of ..." ("Department of Justice").
ORG_HEADS_OF = {"department", "office", "ministry", "bureau", "board", "court", "university",
                "college", "city", "county", "town", "village", "state", "commission", "council",
                "division", "school", "institute", "church", "bank", "district"}

SCHOOL_WORDS = {"school", "academy", "university", "college", "school district"}

# Well-known news outlets (display form). Matched case-sensitively as whole words.
NEWS_OUTLETS = {
    "CNN", "Fox News", "MSNBC", "NBC", "NBC News", "ABC", "ABC News", "CBS", "CBS News", "NPR",
    "PBS", "BBC", "Reuters", "Associated Press", "AP", "AFP", "Bloomberg", "Politico", "Axios",
    "The New York Times", "New York Times", "The Washington Post", "Washington Post",
    "The Wall Street Journal", "Wall Street Journal", "USA Today", "Los Angeles Times",
    "The Guardian", "The Atlantic", "ProPublica", "BuzzFeed News", "HuffPost", "Vox",
    "The Hill", "Al Jazeera", "Sky News", "The Economist", "Newsweek", "Time", "Vice",
    "The Intercept", "Business Insider", "Financial Times", "The Times", "Daily Mail",
    "Miami Herald", "Chicago Tribune", "Boston Globe", "Sun Sentinel", "Univision", "Telemundo",
}

# Social platforms: never people; organisations only when the story is about them.
PLATFORMS = {"twitter", "facebook", "instagram", "youtube", "tiktok", "snapchat", "linkedin",
             "reddit", "whatsapp", "telegram", "threads", "mastodon", "bluesky", "truth social",
             "gab", "parler", "periscope", "twitch", "discord", "substack", "medium", "tumblr",
             "pinterest", "signal", "wechat", "weibo", "google", "x"}

# Platform names that are ordinary words too: suggested only when the model says so.
AMBIGUOUS_PLATFORMS = {"threads", "medium", "signal", "x", "gab", "telegram", "truth social",
                       "discord", "periscope"}

# Well-known agencies written as acronyms, with their kind.
AGENCY_ACRONYMS = {
    "FBI": "law enforcement agency", "ATF": "law enforcement agency",
    "DEA": "law enforcement agency", "ICE": "law enforcement agency",
    "CBP": "law enforcement agency", "DHS": "government agency", "DOJ": "government agency",
    "NYPD": "law enforcement agency", "LAPD": "law enforcement agency",
    "CIA": "government agency", "NSA": "government agency", "IRS": "government agency",
    "EPA": "government agency", "FDA": "government agency", "CDC": "government agency",
    "FAA": "government agency", "NTSB": "government agency", "SEC": "government agency",
    "FEMA": "government agency", "TSA": "government agency", "USPS": "government agency",
    "NASA": "government agency", "NATO": "organization", "UN": "organization",
    "WHO": "organization", "ACLU": "organization", "NAACP": "organization",
    "NRA": "organization", "GOP": "political party",
}
# All-caps words that are not organisations.
NOT_ACRONYMS = {"US", "U.S", "USA", "UK", "EU", "TV", "OK", "AM", "PM", "CEO", "CFO", "COO", "ID",
                "DNA", "GPS", "AR", "ATM", "PDF", "FAQ", "LGBT", "LGBTQ", "COVID", "AIDS", "HIV",
                "ER", "ICU", "PTSD", "ADHD", "IQ", "SUV", "RV", "DUI", "DWI", "II", "III", "IV",
                "VI", "JR", "SR", "PR", "BREAKING", "UPDATE", "NEW", "THE", "A", "I", "MD", "PHD",
                "GPA", "SAT", "ACT", "MPH", "USD", "EST", "PST", "CST", "UTC", "GMT", "AI", "IT"}

# Capitalised words that start sentences or headlines but never start a name.
FUNCTION_WORDS = {
    "the", "a", "an", "and", "but", "or", "nor", "so", "yet", "if", "when", "while", "where",
    "after", "before", "since", "as", "at", "in", "on", "of", "for", "from", "to", "by", "with",
    "without", "about", "against", "during", "under", "over", "according", "some", "many",
    "most", "all", "both", "each", "every", "no", "not", "former", "this", "that", "these",
    "those", "there", "here", "his", "her", "their", "our", "my", "its", "we", "they", "he",
    "she", "it", "i", "you", "likewise", "also", "then", "now", "still", "even", "just", "only",
    "why", "how", "what", "who", "which", "whose", "whether", "though", "although", "because",
    "however", "meanwhile", "instead", "indeed", "yes", "sources", "officials", "police",
    "authorities", "investigators", "witnesses", "students", "parents", "residents", "neither",
    "either", "several", "few", "more", "less", "other", "another", "such", "until", "among",
    "between", "through", "into", "onto", "upon", "near", "outside", "inside", "despite",
    "unlike", "like", "than", "per", "via", "said", "says", "asked", "told", "mr", "mrs", "ms",
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "dozens",
    "hundreds", "thousands", "any", "maybe", "perhaps",
}

# Verbs that models glue to the front of a name ("Follow Dana Kessler", "Contact Jane Doe").
LEADING_VERBS = {"follow", "contact", "read", "watch", "meet", "ask", "email", "e-mail", "call",
                 "text", "reach", "listen", "subscribe", "photo", "photos", "credit", "courtesy",
                 "video", "says", "said", "thanks", "thank", "dear", "via", "by", "share", "tweet",
                 "like", "join", "see", "visit", "write", "message"}

# Plural or collective nouns that cannot be a person's name on their own or at its end.
NOT_NAME_WORDS = {
    "departments", "department", "officers", "officer", "deputies", "officials", "agencies",
    "services", "forces", "police", "students", "teachers", "parents", "schools", "families",
    "offices", "office", "county", "city", "state", "states", "street", "avenue", "road",
    "boulevard", "highway", "lane", "drive", "school", "university", "college", "court",
    "church", "hospital", "committee", "council", "board", "news", "times", "post", "center",
    "centre", "river", "lake", "mountain", "island", "airport", "station", "bridge",
    "square", "building", "hall", "tower", "plaza", "mall", "jail", "prison", "party",
    "republicans", "democrats", "americans", "sheriff", "sheriffs", "fire", "rescue", "team",
    "company", "inc", "corp", "group", "association", "union", "act", "bill", "law", "amendment",
    "day", "week", "month", "year", "weekend", "night", "morning", "afternoon", "evening",
    "falls", "springs", "heights", "creek", "canyon",  # place names ("<X> Falls")
}
# Street-name endings: "Elm Street" or "Main St." is never a person.
STREET_WORDS = {"street", "st.", "avenue", "ave.", "road", "rd.", "boulevard", "blvd.", "lane",
                "ln.", "drive", "highway", "hwy.", "parkway", "pkwy.", "way", "terrace", "trail",
                "place", "circle", "expressway", "freeway", "turnpike", "interstate", "route"}
# Drug and product names that models tag as people.
PRODUCTS = {"fentanyl", "narcan", "naloxone", "xanax", "oxycontin", "percocet", "adderall",
            "ambien", "tylenol", "advil", "ozempic", "suboxone", "ketamine", "molly", "ecstasy",
            "iphone", "ipad", "android", "windows", "glock", "taser", "uber", "lyft", "tesla",
            "airbnb", "alexa", "siri", "chatgpt", "ring", "venmo", "paypal", "zoom"}

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12,
    "dec": 12,
}
WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

# Abbreviations after which a period does not end a sentence.
ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "sen", "rep", "gov", "lt", "sgt", "capt", "col", "gen",
                 "maj", "cpl", "det", "rev", "prof", "st", "jr", "sr", "inc", "corp", "co", "ltd",
                 "no", "vs", "ave", "blvd", "rd", "mt", "ft", "jan", "feb", "mar", "apr", "jun",
                 "jul", "aug", "sep", "sept", "oct", "nov", "dec", "u.s", "u.k", "d.c", "a.m",
                 "p.m", "e.g", "i.e", "etc", "approx", "dept", "univ", "gov't", "atty",
                 "ala", "ariz", "ark", "calif", "colo", "conn", "del", "fla", "ga", "ill", "ind",
                 "kan", "ky", "la", "md", "mass", "mich", "minn", "miss", "mo", "mont", "neb",
                 "nev", "okla", "ore", "pa", "tenn", "vt", "va", "wash", "wis", "wyo"}

# Last words of newspaper names ("Port Ellis Herald", "Daily Ledger"): such a capitalised
# phrase is a news outlet.
OUTLET_WORDS = ["Herald", "Tribune", "Ledger", "Gazette", "Courier", "Chronicle", "Sentinel",
                "Dispatch", "Examiner", "Inquirer", "Enquirer", "Courant", "Journal", "Times",
                "Post", "Observer", "Bulletin", "Register", "Telegraph", "Star-Telegram",
                "Democrat-Gazette", "Free Press", "Daily News", "Star-Ledger", "Picayune"]
# Words that end a news organisation's name in a byline line ("Capitol Bureau", "Staff").
BYLINE_OUTLET_WORDS = [*OUTLET_WORDS, "Bureau", "News", "Press", "Review", "Star", "Globe",
                       "Magazine", "Radio", "Report"]
# Court levels written before "Judge" ("<county> Circuit Judge"): the judge's court.
COURT_LEVELS = {"Circuit", "District", "Superior", "Municipal", "Probate", "Family", "Supreme",
                "Appeals", "Juvenile", "Chancery", "Bankruptcy", "Magistrate", "Criminal",
                "Civil", "Common"}
