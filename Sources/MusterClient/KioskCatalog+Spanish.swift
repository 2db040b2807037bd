extension KioskCatalog {
    static func spanish(_ message: KioskMessage) -> String {
        switch message {
        case .title(let kiosk): "== Muster · quiosco \(kiosk) =="
        case .banner(let campaign, let kiosk): "== \(campaign) · registro de llegada · quiosco \(kiosk) =="
        case .waitingForEvent: "Este quiosco está esperando a que la organización elija el evento."
        case .languageHint: languageHint
        case .languageChosen: "Idioma: español."
        case .mainPrompt: "Correo electrónico o código de entrada (o 'new' para registrarse): "
        case .found(let name): "Se ha encontrado: \(name)"
        case .confirmPrompt: "¿Es usted? ¿Registrar su llegada ahora? [s/N] "
        case .notCheckedIn: "Llegada no registrada."
        case .notFound:
            "No encontrado: ninguna entrada ni correo coincide. Revise la ortografía o escriba 'new' para registrarse."
        case .seeStaff(let seconds):
            "No encontrado de nuevo. Diríjase al personal, por favor. Podrá volver a intentarlo en \(seconds) s."
        case .notValid(let name): "Diríjase al personal: \(name), esta entrada no es válida para el registro."
        case .alreadyIn(let name, let time): "Llegada ya registrada: \(name), a las \(time)."
        case .checkedIn(let time): "Llegada registrada a las \(time)."
        case .welcome(let first): first.isEmpty ? "¡Le damos la bienvenida!" : "¡Le damos la bienvenida, \(first)!"
        case .welcomeWord: "BIENVENIDOS"
        case .ticketCode(let code): "Su código de entrada es \(code). Guárdelo para volver a entrar."
        case .scanAtReEntry: "Escanee este código para volver a entrar:"
        case .notePrompt: "Deje una nota de una línea en el libro de visitas (o pulse Intro para omitirla): "
        case .noteSaved: "Gracias, su nota está en el libro de visitas."
        case .noteNotSaved: "La nota no se ha guardado."
        case .enjoy: "¡Disfrute del evento!"
        case .registrationStart: "Registro en el lugar (deje el nombre vacío para cancelar)."
        case .firstNamePrompt: "Nombre: "
        case .lastNamePrompt: "Apellidos: "
        case .lastNameRequired: "Apellidos (obligatorio): "
        case .emailPrompt: "Correo electrónico: "
        case .notAnEmail: "Eso no parece una dirección de correo electrónico."
        case .companyPrompt: "Empresa (opcional): "
        case .registrationCancelled: "Registro cancelado."
        case .emailRegistered: "Este correo ya está registrado. ¿Es el suyo? ¿Registrar su llegada ahora? [s/N] "
        case .failed(let detail): "Diríjase al personal: algo ha fallado (\(detail))."
        case .refused(let detail): "Llegada no registrada: \(detail)"
        case .seeStaffDesk: "Llegada no registrada. Diríjase al personal, por favor."
        case .doorRefused(.notFound): spanish(.notFound)
        case .doorRefused(.notLocked): spanish(.waitingForEvent)
        case .doorRefused(.alreadyInside): "Llegada no registrada: ya está dentro de esta zona."
        case .doorRefused(.outsideWindow): "Llegada no registrada: el registro no está abierto en este momento."
        case .doorRefused(.zoneFull):
            "Llegada no registrada: esta zona está completa en este momento. Espere o pregunte al personal."
        case .doorRefused(.entriesUsedUp): "Llegada no registrada: esta entrada ya no permite más accesos."
        case .doorRefused(.notAdmitted): "Diríjase al personal: esta entrada no es válida para el registro."
        case .doorRefused(.reEntryRefused):
            "Llegada no registrada: no se permite volver a entrar en esta zona después de salir."
        case .badgePrinting: "Imprimiendo su acreditación…"
        case .badgePrinted: "Su acreditación está lista: recójala de la impresora."
        case .badgeNotPrinted: "No se ha podido imprimir su acreditación. Diríjase al mostrador del personal."
        case .badgeAlreadyPrinted: "Ya se imprimió una acreditación para usted. Pida otra en el mostrador del personal."
        }
    }
}
