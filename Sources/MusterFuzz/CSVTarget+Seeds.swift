extension CSVTarget {
    /// Files shaped like real exports (Salesforce, Eventbrite, pretix, hand-made sheets, European Excel)
    /// and like the ways they go wrong.
    func seeds() throws -> [Seed] {
        let long = String(repeating: "x", count: Self.maxFieldCharacters)
        return [
            Seed(
                "generic.csv",
                text: """
                    email,first_name,last_name,company,ticket
                    ana@example.com,Ana María,López,Ñandú GmbH,T-1001
                    bob@example.org,Bob,Builder,,T-1002

                    """
            ),
            Seed(
                "salesforce-crlf.csv",
                text: "\"Campaign Member ID\",\"Member Status\",\"First Name\",\"Last Name\","
                    + "\"Email\",\"Company / Account\"\r\n\"00v5g00000ABCDEFGH\",\"Responded\",\"Jane\",\"Doe\","
                    + "\"jane.doe@example.com\",\"Acme, Inc.\"\r\n\"00v5g00000ABCDE\",\"Refunded\",\"John\",\"Roe\","
                    + "\"JOHN@example.com\",\"Roe \"\"Consulting\"\"\"\r\n"
            ),
            Seed(
                "eventbrite.csv",
                text: """
                    Order #,Order Date,First Name,Last Name,Email,Attendee #,Barcode #,Attendee Status,Company
                    123456789,2026-01-10,Li,Wei,li.wei@example.cn,987654321,9876543210001,Attending,"Wei, Li & Co"
                    123456790,2026-01-11,Sam,Smith,sam@example.com,987654322,,Not Attending,

                    """
            ),
            Seed(
                "pretix.csv",
                text: """
                    Order code,Attendee name,Attendee name: Given name,Attendee name: Family name,Email,Secret,Status,Company
                    ABC12,Zoë Faure,Zoë,Faure,zoe@example.fr,s3cr3tk3yabcdef,p,
                    ABC13,Jean Dupont,,,jean@example.fr,s3cr3tk3yabcdeg,c,Dupont SA

                    """
            ),
            Seed(
                "quoted-fields.csv",
                text: """
                    email,name,company
                    "quote@example.com","Doe, Jane","The ""Best"" Company"
                    multi@example.com,"Line one
                    line two",   "padded"  

                    """
            ),
            Seed(
                "bom.csv",
                [0xEF, 0xBB, 0xBF] + Array("Email,First Name,Last Name\r\nbom@example.com,Bo,Mé\r\n".utf8)
            ),
            Seed(
                "semicolon.csv",
                text: "email;first name;last name;company\nmueller@example.de;Jörg;Müller;Müller, Söhne & Co\n"
            ),
            Seed("tab.tsv", text: "email\tname\tticket\ntab@example.com\tTab Separated\tT-9\n"),
            Seed("lone-cr.csv", text: "email,name\rcr@example.com,Old Mac\r"),
            Seed(
                "duplicates-blank-skipped.csv",
                text: """
                    email,first_name,last_name,status
                    dup@example.com,Dup,,Refunded

                    DUP@example.com,,Licate,Registered
                    ,No,Email,
                       ,  ,  ,  

                    """
            ),
            Seed(
                "hostile-text.csv",
                text: "email,first_name,last_name,company\n"
                    + "evil@example.com,\u{1B}[2JEve,\u{202E}reversed\u{202C},\u{200B}Zero\u{00A0}\u{00A0}Width\u{FEFF}\n"
                    + "tabs@example.com,\"a\tb\r\nc\",\u{85}next,\u{0301}mark\n"
            ),
            Seed("at-limit.csv", text: "email,company\nlimit@example.com,\(long)\n"),
            Seed("over-limit.csv", text: "email,company\nover@example.com,\(long)y\n"),
            Seed("email-only.csv", text: "E-Mail\nsolo@example.com\n"),
            Seed(
                "many-rows.csv",
                text: "email,ticket\n"
                    + (1...45).map { "row\($0)@example.com,T-\($0)\n" }.joined()
            ),
            Seed(
                "long-unread-column.csv",
                text: "email,comments\nlong@example.com,\"\(String(repeating: "z", count: 2_000))\"\n"
            ),
            Seed("bad-email.csv", text: "email,name\nnot an email,Nobody\n"),
            Seed("wrong-column-count.csv", text: "email,name\na@example.com,One,Two\n"),
            Seed("unterminated-quote.csv", text: "email,name\n\"open@example.com,Never closed\n"),
            Seed("latin1.csv", Array("email,name\nlatin@example.com,M".utf8) + [0xFC] + Array("ller\n".utf8)),
            Seed("unknown-format.csv", text: "email,favourite colour\nc@example.com,blue\n"),
            Seed("no-email-column.csv", text: "name,company\nNo Mail,None\n"),
            Seed("empty.csv", []),
        ]
    }
}
