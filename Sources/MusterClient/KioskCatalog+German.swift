extension KioskCatalog {
    static func german(_ message: KioskMessage) -> String {
        switch message {
        case .title(let kiosk): "== Muster · Kiosk \(kiosk) =="
        case .banner(let campaign, let kiosk): "== \(campaign) · Check-in · Kiosk \(kiosk) =="
        case .waitingForEvent: "Dieser Kiosk wartet darauf, dass der Veranstalter die Veranstaltung auswählt."
        case .languageHint: languageHint
        case .languageChosen: "Sprache: Deutsch."
        case .mainPrompt: "E-Mail oder Ticketcode (oder 'new' zum Registrieren): "
        case .found(let name): "Gefunden: \(name)"
        case .confirmPrompt: "Sind Sie das? Jetzt einchecken? [j/N] "
        case .notCheckedIn: "Nicht eingecheckt."
        case .notFound:
            "Nicht gefunden: Kein Ticket und keine E-Mail passt. Prüfen Sie die Schreibweise oder geben Sie 'new' ein, um sich zu registrieren."
        case .seeStaff(let seconds):
            "Wieder nicht gefunden. Bitte wenden Sie sich an das Personal. Der nächste Versuch ist in \(seconds) s möglich."
        case .notValid(let name):
            "Bitte an das Personal wenden: \(name), dieses Ticket ist für den Check-in nicht gültig."
        case .alreadyIn(let name, let time): "Bereits eingecheckt: \(name), um \(time)."
        case .checkedIn(let time): "Eingecheckt um \(time)."
        case .welcome(let first): first.isEmpty ? "Willkommen!" : "Willkommen, \(first)!"
        case .welcomeWord: "WILLKOMMEN"
        case .ticketCode(let code): "Ihr Ticketcode lautet \(code). Bewahren Sie ihn für den Wiedereinlass auf."
        case .scanAtReEntry: "Scannen Sie diesen Code beim Wiedereinlass:"
        case .notePrompt: "Hinterlassen Sie eine Zeile im Gästebuch (oder Enter zum Überspringen): "
        case .noteSaved: "Danke, Ihr Eintrag steht im Gästebuch."
        case .noteNotSaved: "Der Eintrag wurde nicht gespeichert."
        case .enjoy: "Viel Freude bei der Veranstaltung!"
        case .registrationStart: "Registrierung vor Ort (Vorname leer lassen, um abzubrechen)."
        case .firstNamePrompt: "Vorname: "
        case .lastNamePrompt: "Nachname: "
        case .lastNameRequired: "Nachname (erforderlich): "
        case .emailPrompt: "E-Mail: "
        case .notAnEmail: "Das sieht nicht wie eine E-Mail-Adresse aus."
        case .companyPrompt: "Firma (optional): "
        case .registrationCancelled: "Registrierung abgebrochen."
        case .emailRegistered: "Diese E-Mail ist bereits registriert. Ist es Ihre? Jetzt einchecken? [j/N] "
        case .failed(let detail): "Bitte an das Personal wenden: Etwas ist schiefgelaufen (\(detail))."
        case .refused(let detail): "Nicht eingecheckt: \(detail)"
        case .seeStaffDesk: "Nicht eingecheckt. Bitte wenden Sie sich an das Personal."
        case .doorRefused(.notFound): german(.notFound)
        case .doorRefused(.notLocked): german(.waitingForEvent)
        case .doorRefused(.alreadyInside): "Nicht eingecheckt: Sie sind bereits in diesem Bereich."
        case .doorRefused(.outsideWindow): "Nicht eingecheckt: Der Check-in ist zu dieser Zeit nicht geöffnet."
        case .doorRefused(.zoneFull):
            "Nicht eingecheckt: Dieser Bereich ist gerade voll. Bitte warten Sie oder fragen Sie das Personal."
        case .doorRefused(.entriesUsedUp): "Nicht eingecheckt: Mit diesem Ticket ist kein weiterer Eintritt möglich."
        case .doorRefused(.notAdmitted):
            "Bitte wenden Sie sich an das Personal: Dieses Ticket ist für den Check-in nicht gültig."
        case .doorRefused(.reEntryRefused):
            "Nicht eingecheckt: Wer diesen Bereich verlassen hat, kann ihn nicht erneut betreten."
        case .badgePrinting: "Ihr Namensschild wird gedruckt …"
        case .badgePrinted: "Ihr Namensschild ist fertig: Bitte nehmen Sie es aus dem Drucker."
        case .badgeNotPrinted: "Ihr Namensschild konnte nicht gedruckt werden. Bitte wenden Sie sich an den Empfang."
        case .badgeAlreadyPrinted:
            "Für Sie wurde bereits ein Namensschild gedruckt. Ein weiteres erhalten Sie am Empfang."
        }
    }
}
